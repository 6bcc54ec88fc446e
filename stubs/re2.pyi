# google-re2 ships no type information; this declares the part browserhost uses
# (host/verb_schemas.py). mypy reads it through mypy_path in pyproject.toml.

class error(Exception): ...

class Options:
    max_mem: int
    log_errors: bool

class _Match: ...

class _Regexp:
    def search(
        self, text: str, pos: int | None = None, endpos: int | None = None
    ) -> _Match | None: ...

def compile(pattern: str, options: Options | None = None) -> _Regexp: ...
