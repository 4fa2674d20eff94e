"""The values of the samples table's ``status`` column, in a module that imports nothing.

``sampler.store.schema`` defines the format and re-exports these; the verification
workers import them from here, so that they load math-verify and not pyarrow (about
0.15 s less before the first worker can start).
"""

STATUS_CORRECT = "correct"
STATUS_INCORRECT = "incorrect"
STATUS_NO_ANSWER = "no_answer"
STATUS_TIMEOUT = "timeout"
STATUS_ERROR = "error"
#: the question has no gold answer: nothing to grade against; not a verdict, left out of
#: P/E/S/O and not retried by ``leash verify --retry``
STATUS_NO_GOLD = "no_gold"
STATUSES = (
    STATUS_CORRECT,
    STATUS_INCORRECT,
    STATUS_NO_ANSWER,
    STATUS_TIMEOUT,
    STATUS_ERROR,
    STATUS_NO_GOLD,
)
