"""``python -m rankviz.teaching.homework`` prints docs/homework.md (the kinds and the mistake catalogue)."""

from rankviz.teaching.homework import catalogue_markdown

print(catalogue_markdown(), end="")
