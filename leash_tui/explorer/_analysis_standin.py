"""TEMPORARY stand-in for leash_tui.support_analysis until the analysis branch is merged."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc


def pass_at_k(n, c, k):
    n, c = np.asarray(n, dtype=float), np.asarray(c, dtype=float)
    k = np.broadcast_to(np.asarray(k), n.shape)
    out = np.ones(n.shape)
    for i in np.ndindex(n.shape):
        if n[i] - c[i] >= k[i]:
            j = np.arange(n[i] - c[i] - k[i] + 1, n[i] - c[i] + 1)
            out[i] = 1.0 - np.prod(1.0 - k[i] / (j + k[i])) if k[i] else 0.0
            out[i] = 1.0 - math.prod((n[i] - c[i] - t) / (n[i] - t) for t in range(int(k[i])))
    return out


def compare_questions(counts: pa.Table, base: str, target: str, k=None) -> pa.Table:
    rows = {}
    for r in counts.to_pylist():
        if r["model"] in (base, target):
            rows.setdefault((r["benchmark"], r["question_id"]), {})[r["model"]] = r
    out = []
    for (b, q), m in sorted(rows.items()):
        if base not in m or target not in m:
            continue
        nb, cb = m[base]["n_verified"], m[base]["n_correct"]
        nt, ct = m[target]["n_verified"], m[target]["n_correct"]
        kk = k or min(nb, nt)
        pb, pt = pass_at_k([nb], [cb], kk)[0], pass_at_k([nt], [ct], kk)[0]
        cat = {(True, True): "P", (False, True): "E", (True, False): "S"}.get(
            (pb >= 0.5, pt >= 0.5), "O"
        )
        from scipy.stats import fisher_exact

        p = fisher_exact([[cb, nb - cb], [ct, nt - ct]])[1]
        out.append(
            dict(
                benchmark=b,
                question_id=q,
                n_base=nb,
                c_base=cb,
                n_target=nt,
                c_target=ct,
                k=kk,
                pass1_base=cb / nb,
                pass1_target=ct / nt,
                passk_base=pb,
                passk_target=pt,
                category=cat,
                fisher_p=p,
            )
        )
    return pa.Table.from_pylist(out)


def summary_rows(questions, domains, base, target, k=None, entropies=None):
    rows = []
    t = questions.to_pylist()
    for scope, name, sel in [
        ("benchmark", b, [r for r in t if r["benchmark"] == b])
        for b in sorted({r["benchmark"] for r in t})
    ] + [("overall", "overall", t)]:
        c = Counter(r["category"] for r in sel)
        P, E, S, O = (c[x] for x in "PESO")  # noqa: E741
        srr = P / (P + S) if P + S else None
        ndr = E / (P + E) if P + E else None
        rows.append(
            {
                "scope": scope,
                "name": name,
                "base": base,
                "target": target,
                "k": min(r["k"] for r in sel),
                "N": len(sel),
                "P": P,
                "E": E,
                "S": S,
                "O": O,
                "SRR": srr,
                "NDR": ndr,
                "SDS": None,
                "NSCR": (E - S) / (P + E + S) if P + E + S else None,
                "pass@1": {
                    "base": float(np.mean([r["pass1_base"] for r in sel])),
                    "target": float(np.mean([r["pass1_target"] for r in sel])),
                },
                "pass@k": {
                    "base": float(np.mean([r["passk_base"] for r in sel])),
                    "target": float(np.mean([r["passk_target"] for r in sel])),
                },
                "sign_test_p": None,
                "token_entropy": None,
                "answer_entropy": None,
            }
        )
    return rows


def budget_curve(questions, ks=None):
    kmax = int(pc.min(questions["k"]).as_py())
    ks = ks or sorted({2**i for i in range(int(math.log2(kmax)) + 1)} | {kmax})
    nb, cb = questions["n_base"].to_numpy(), questions["c_base"].to_numpy()
    nt, ct = questions["n_target"].to_numpy(), questions["c_target"].to_numpy()
    out = []
    for k in ks:
        b, t = pass_at_k(nb, cb, k), pass_at_k(nt, ct, k)
        out.append(
            dict(
                k=k,
                passk_base=b.mean(),
                passk_target=t.mean(),
                P=(b * t).sum(),
                E=((1 - b) * t).sum(),
                S=(b * (1 - t)).sum(),
                O=((1 - b) * (1 - t)).sum(),
            )
        )
    return pa.Table.from_pylist(out)


def answer_distribution(answers, correct):
    answers = answers.to_pylist() if hasattr(answers, "to_pylist") else list(answers)
    correct = correct.to_pylist() if hasattr(correct, "to_pylist") else list(correct)
    counts, ok = Counter(), {}
    for a, c in zip(answers, correct, strict=True):
        key = "NA" if a is None else a
        counts[key] += 1
        ok[key] = ok.get(key, False) or bool(c)
    return [(a, n, ok[a]) for a, n in counts.most_common()]


def answer_entropy(answers, correct=None):
    d = answer_distribution(answers, correct if correct is not None else [False] * len(answers))
    n = sum(x[1] for x in d)
    return -sum(c / n * math.log(c / n) for _, c, _ in d) if n else None


def gold_share_and_rank(answers, correct):
    d = answer_distribution(answers, correct)
    n = sum(x[1] for x in d)
    share = sum(c for _, c, ok in d if ok) / n if n else 0.0
    rank = next((i + 1 for i, (_, _, ok) in enumerate(d) if ok), None)
    return share, rank
