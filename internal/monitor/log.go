package monitor

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
)
