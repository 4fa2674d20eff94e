"""One reader per foreign sample format: leash JSONL, lm-eval, Qwen2.5-Math eval, lighteval."""
