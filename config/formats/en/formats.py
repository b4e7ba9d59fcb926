"""English: a point before the cents, thousands grouped by a thin space (as every screen and slip already
grouped them, and as SI writes them: never a comma, which German reads as the decimal mark); dates in ISO 8601."""

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = "\u2009"
NUMBER_GROUPING = 3
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
