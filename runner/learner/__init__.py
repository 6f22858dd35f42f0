"""A learner's own implementation, judged from outside.

The learner's file is imported and called only in a worker process (:mod:`.worker`, forked
from a fork server that :mod:`.server` prepares); the judge sees its functions as proxies
that send inputs and receive results as plain data (:mod:`.codec`, :mod:`.session`).
:mod:`.scaffold` writes the file a learner starts from.
"""
