"""Layer 9, what the Web Worker calls: the worker protocol (one schema, ``protocol``) and the
``Service`` that answers it, running plans in timeslices."""

from . import protocol
from .service import Service

__all__ = ["Service", "protocol"]
