"""Side tables beside the shards: perplexities, answer-entropy samples and answer classes."""
