package vigil

import (
	"context"
	"encoding/json"
	"time"
)

// Message is the payload of an outbox entry (Notification.Payload): one
// notification, or one digest gathering the changes of a period, ready for
// any channel. Channels pick the parts they can show: email sends Text and
// HTML, a webhook posts the JSON, chat services send Text.
type Message struct {
	SentinelID   int64  `json:"sentinelId"`
	SentinelName string `json:"sentinel"`
	URL          string `json:"url,omitempty"`
	Subject      string `json:"subject"`
	Text         string `json:"text"`
	HTML         string `json:"html,omitempty"`
	// FeedLink is the link to the sentinel's feed that Text and HTML
	// carry, if any. Its token can be replaced (RotateSentinelFeed) while
	// the message waits in the outbox: the message is delivered with the
	// feed link of the sentinel as it is then, put in this one's place.
	FeedLink string `json:"feedLink,omitempty"`
	// Digest is set for a periodic digest; Since and Until bound its period.
	Digest  bool           `json:"digest,omitempty"`
	Since   time.Time      `json:"since,omitzero"`
	Until   time.Time      `json:"until,omitzero"`
	Changes []*MessageItem `json:"changes"`
	// Failure is set, and Changes empty, for the notice that a watched
	// page has failed for a while, or works again.
	Failure *PageFailure `json:"failure,omitempty"`
	// Ended is set, and Changes empty, for the notice that the
	// sentinel's lifespan ended at that time: it is checked no more.
	Ended time.Time `json:"ended,omitzero"`
}

// PageFailure describes a watched page that fails: since when, with what
// error, and whether it works again (the notice of its recovery).
type PageFailure struct {
	URL       string    `json:"url"`
	Since     time.Time `json:"since"`
	Error     string    `json:"error,omitempty"`
	Recovered bool      `json:"recovered,omitempty"`
}

// MessageItem is one change reported by a Message: the stored change (with
// its typed records) and the delta between the two versions compared.
type MessageItem struct {
	Change *Change         `json:"change"`
	Delta  json.RawMessage `json:"delta,omitempty"`
	// DeltaReading says how the versions Delta compares are read, as the
	// change's records were found: "" for each as it is read (its tree,
	// as the API and the dashboard show it), DeltaReadingText for the two
	// read as their source texts (an HTML page whose body is one <pre> of
	// a text node a line), when one is read as a page and the other as
	// text (Version.ReadAsText), so that the delta holds the lines that
	// changed, not the page's tree replaced by a text.
	DeltaReading string `json:"deltaReading,omitempty"`
	// RecordsOmitted counts the records of a large change left out of
	// Change.Records, which holds the first ones: a message stays small
	// where a page changed everywhere. The stored change has them all.
	RecordsOmitted int `json:"recordsOmitted,omitempty"`
}

// DeltaReadingText is MessageItem.DeltaReading for a delta between the
// source texts of two versions read differently.
const DeltaReadingText = "text"

// Notifier delivers messages on one channel ("email", "webhook", "chat")
// to a target (an address, a URL). Notify returns an error with code
// EINVALID for a failure no retry can fix (a malformed target), which sends
// the entry straight to the dead letters; any other error is retried.
type Notifier interface {
	Notify(ctx context.Context, target string, m *Message) error
}

// NotifierFunc adapts a function to the Notifier interface.
type NotifierFunc func(ctx context.Context, target string, m *Message) error

// Notify calls f.
func (f NotifierFunc) Notify(ctx context.Context, target string, m *Message) error {
	return f(ctx, target, m)
}

type deliveryKey struct{}

// WithDeliveryID returns ctx carrying the id of the outbox entry being
// delivered, which channels that can (webhooks) pass on for deduplication.
func WithDeliveryID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, deliveryKey{}, id)
}

// DeliveryID returns the delivery id carried by ctx.
func DeliveryID(ctx context.Context) (string, bool) {
	id, ok := ctx.Value(deliveryKey{}).(string)
	return id, ok
}

type deliveryUserKey struct{}

// WithDeliveryUser returns ctx carrying the id of the user who owns the
// outbox entry being delivered (Notification.UserID), which channels that
// can (webhooks) sign for: a receiver holding that user's key checks the
// delivery is theirs.
func WithDeliveryUser(ctx context.Context, userID int64) context.Context {
	return context.WithValue(ctx, deliveryUserKey{}, userID)
}

// DeliveryUser returns the owner of the delivery carried by ctx, if any
// (an id above 0).
func DeliveryUser(ctx context.Context) (int64, bool) {
	id, ok := ctx.Value(deliveryUserKey{}).(int64)
	return id, ok && id > 0
}
