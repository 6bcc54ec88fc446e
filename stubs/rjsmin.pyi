# rjsmin ships no type information; this declares the part browserhost uses
# (providers/chromium/pagescript.py). mypy reads it through mypy_path in pyproject.toml.

def jsmin(script: str, keep_bang_comments: bool = False) -> str: ...
