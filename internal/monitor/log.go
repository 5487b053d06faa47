// Package monitor is Vigil's pipeline from a due sentinel to a delivered
// notification: it claims due sentinels, fetches each watched URL once for
// all the sentinels that watch it, stores new versions, evaluates each
// change type once per (resource, reference version, change type), combines
// the results with the sentinels' AND / OR / NOT, writes change records and
// enqueues notifications in the same transaction as the sentinel's new
// state, and delivers the outbox (outbox.go).
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
