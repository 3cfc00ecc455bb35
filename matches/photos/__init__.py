"""The referee sheet's photos: the picture checked and cleaned (processing), stored and shown (services)."""
