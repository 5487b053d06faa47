package vigil

import "strings"

// StorableText returns s as every store keeps a text that comes from
// outside and is only shown (the error of a delivery, which a server's
// answer may fill: an SMTP reply in Latin-1, a NUL in a JSON string):
// each byte sequence that is not UTF-8, and each NUL, replaced by
// U+FFFD. PostgreSQL refuses either in a text column, and SQLite would
// keep what PostgreSQL cannot; the backends keep this text alike.
func StorableText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.ReplaceAll(s, "\x00", "\uFFFD")
}
