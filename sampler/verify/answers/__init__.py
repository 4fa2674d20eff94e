"""From a completion to a verdict: final-answer extraction, units, golds and the math comparison."""
