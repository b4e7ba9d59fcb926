"""Number and date formats of the two languages (``FORMAT_MODULE_PATH``): Django's own, except where noted."""
