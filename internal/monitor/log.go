package monitor

import (
	"log/slog"

	"github.com/vigil-web/vigil"
)

// Attribute keys of the log records.
const (
	LogError        = "err"
	LogSentinel     = "sentinel"
	LogResource     = "resource"
	LogURL          = "url"
	LogNotification = "notification"
	LogChannel      = "channel"
	LogAttempts     = "attempts"
	LogVersion      = "version"
	LogChanges      = "changes"
	LogDeleted      = "deleted"
	LogKeptFor      = "kept_for"
)

// logURL is the attribute of a URL in a log record: the URL with its
// password hidden (vigil.RedactURL). Every record that names a URL names
// it so.
func logURL(u string) slog.Attr { return slog.String(LogURL, vigil.RedactURL(u)) }
