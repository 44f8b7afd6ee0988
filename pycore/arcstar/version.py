"""The package version, in one place (the wheel, the service's ``info`` and the CLI read it)."""

__version__ = "0.1.0"
