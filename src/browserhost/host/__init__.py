from browserhost.contract.wire import Outcome

from .catalog import Catalog, InstallError
from .dispatch import Host, Listing

__all__ = ["Catalog", "Host", "InstallError", "Listing", "Outcome"]
