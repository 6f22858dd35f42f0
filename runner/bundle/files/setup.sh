#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (its
# specification: https://gradescope-autograders.readthedocs.io/en/latest/specs/). It makes a
# virtual environment with a Python >= 3.11 and installs exactly the engine this bundle was
# made with (its wheel in wheels/) and the dependency versions pinned in requirements.txt.
# AUTOGRADER_ROOT moves /autograder elsewhere (a local trial run).
set -euo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
source="$(cd "$(dirname "$0")" && pwd)"

recent() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; }
python=""
for candidate in python3.13 python3.12 python3.11 python3; do
  if command -v "$candidate" >/dev/null && recent "$candidate"; then python="$candidate"; break; fi
done
if [ -z "$python" ]; then  # Ubuntu 22.04's python3 is 3.10: its universe has 3.11
  apt-get install -y -q python3.11 python3.11-venv
  python=python3.11
fi
if ! "$python" -m venv "$root/venv"; then  # Debian and Ubuntu keep venv's pip apart
  apt-get install -y -q "$("$python" -c 'import sys; print("python3.%d-venv" % sys.version_info[1])')"
  "$python" -m venv "$root/venv"
fi
"$root/venv/bin/python" -m pip install --quiet --upgrade pip
"$root/venv/bin/python" -m pip install --quiet -r "$source/requirements.txt" "$source"/wheels/*.whl
# the claims (hidden ones included) and the packs are the grader's: only root reads them; the
# learner's code runs in workers that are not root
chmod -R go-rwx "$source"
"$root/venv/bin/python" -m runner --version
