"""Bundles: the course packaged for another grader's machines (Gradescope's autograder)."""
