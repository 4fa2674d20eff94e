"""A real base model and its RLVR checkpoints, trained in minutes on a CPU (``leash demo --train``).

``task`` generates the verifiable problems, ``tokenizer`` and ``model`` build the tiny
character-level causal LM, ``sft`` trains the base on noisy solutions, ``grpo`` runs TRL's
GRPOTrainer with leash's verifier as the reward (``reward``) and saves checkpoints as
ordinary model folders, and ``stages`` records which stages of a run are finished.
Torch, transformers and trl are imported only inside the functions that train.
"""
