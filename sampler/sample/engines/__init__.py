"""Sampling engines behind one small interface (``sampler.sample.engines.base``).

``vllm`` (offline ``LLM``), ``openai`` (any OpenAI-compatible server by URL) and
``hf`` (transformers ``generate``). Each module imports its heavy library only when
an engine is built, so importing this package is cheap.
"""
