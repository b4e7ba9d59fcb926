"""German: a comma before the cents, thousands grouped by a thin space (DIN 5008 groups digits by a space; the
same grouping as the English pages, so a figure reads alike in both); dates as 29.11.2026."""

DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\u2009"
NUMBER_GROUPING = 3
SHORT_DATE_FORMAT = "d.m.Y"
SHORT_DATETIME_FORMAT = "d.m.Y H:i"
