"""leash's producing side: benchmarks, prompts, engines, verification and the results writer."""
