"""Helpers the tests share: folder builders, data, closed-form models, explorer drivers."""
