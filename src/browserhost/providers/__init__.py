"""Built-in providers. Each registers through the ``browserhost.providers`` entry points,
exactly like a third-party package."""
