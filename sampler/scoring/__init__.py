"""Teacher forcing: scoring given text under a model (exact token entropy, perplexity), apart from
sampling.
"""
