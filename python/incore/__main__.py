"""python -m incore: the report of `incore info`."""
import sys

from incore import info

sys.stdout.write(info())
