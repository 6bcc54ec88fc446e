from .catalog import Catalog, InstallError
from .dispatch import Host, Listing, Outcome

__all__ = ["Catalog", "Host", "InstallError", "Listing", "Outcome"]
