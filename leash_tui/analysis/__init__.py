"""The support-dynamics maths as pure functions on counts: pass@k, categories and rates, budget
curves, exact tests, answer statistics, grading agreement. Imports no user interface.
"""
