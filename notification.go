package vigil

import (
	"encoding/json"
	"fmt"
	"time"
)

// NotificationState is where an outbox entry is in its delivery.
type NotificationState string

const (
	NotificationPending NotificationState = "pending" // waiting for its first attempt
	NotificationFailed  NotificationState = "failed"  // an attempt failed; retried at NextAttempt
	NotificationSent    NotificationState = "sent"    // delivered
	NotificationDead    NotificationState = "dead"    // given up (dead letter)
)

// SentinelRemoved is the LastError of the notifications a store gives up
// when their sentinel is removed before they were sent.
const SentinelRemoved = "its sentinel was removed"

// Notification is an entry of the notification outbox: a message to deliver
// on one channel to one target. It is written in the same transaction as
// the change it reports (or right after) and delivered by a worker that
// claims due entries, so a crash never loses nor silently drops a message.
type Notification struct {
	ID          int64             `json:"id"`
	UserID      int64             `json:"userId,omitempty"`
	ChangeID    int64             `json:"changeId,omitempty"`
	Channel     string            `json:"channel"` // "email", "webhook", "slack"...
	Target      string            `json:"target"`  // address, URL...
	Payload     json.RawMessage   `json:"payload"`
	State       NotificationState `json:"state"`
	Attempts    int               `json:"attempts"`
	NextAttempt time.Time         `json:"nextAttempt"` // due time of the next attempt (or the lease end while claimed)
	LastError   string            `json:"lastError,omitempty"`
	CreatedAt   time.Time         `json:"createdAt"`
	SentAt      time.Time         `json:"sentAt,omitzero"`
}

// Validate returns an EINVALID error naming the first bad field.
func (n *Notification) Validate() error {
	switch {
	case n.Channel == "":
		return Errorf(EINVALID, "notification channel required")
	case n.Target == "":
		return Errorf(EINVALID, "notification target required")
	case len(n.Payload) == 0 || !json.Valid(n.Payload):
		return Errorf(EINVALID, "notification payload must be JSON")
	case n.State != "" && n.State != NotificationPending && n.State != NotificationFailed &&
		n.State != NotificationSent && n.State != NotificationDead:
		return Errorf(EINVALID, "notification state %q unknown", n.State)
	case n.Attempts < 0:
		return Errorf(EINVALID, "notification attempts must not be negative")
	}
	if err := CheckStorableTime("notification nextAttempt", n.NextAttempt); err != nil {
		return err
	}
	return CheckStorableTime("notification sentAt", n.SentAt)
}

// Message decodes the payload. The message of one change is written in the
// transaction that stores the change, before the change has its id: that
// id, 0 in the payload, is filled in from ChangeID.
func (n *Notification) Message() (*Message, error) {
	m := &Message{}
	if err := json.Unmarshal(n.Payload, m); err != nil {
		return nil, err
	}
	if len(m.Changes) == 1 && m.Changes[0].Change != nil && m.Changes[0].Change.ID == 0 {
		m.Changes[0].Change.ID = n.ChangeID
	}
	return m, nil
}

// SentinelID returns the id of the sentinel whose message n carries, read
// from its payload: 0 if the payload names none or does not read. A letter
// that reports no one change (a digest, the notice that a page fails) is
// known to be its sentinel's by this alone.
func (n *Notification) SentinelID() int64 {
	var m struct {
		SentinelID int64 `json:"sentinelId"`
	}
	if json.Unmarshal(n.Payload, &m) != nil {
		return 0
	}
	return m.SentinelID
}

// NotificationFilter selects outbox entries, oldest first (newest first
// if Descending).
type NotificationFilter struct {
	State      NotificationState
	UserID     int64
	Offset     int
	Limit      int
	Descending bool
}

// NotificationRetry is a user's retry of a dead letter
// (OutboxStore.RetryNotification).
type NotificationRetry struct {
	// At is when the letter is due again.
	At time.Time
	// SentinelID, if not 0, is the sentinel whose message the letter
	// carries: the letter is retried only if the sentinel still exists,
	// checked in the store's transaction of the retry, so that a sentinel
	// removed while the retry was asked for leaves no pending letter
	// behind.
	SentinelID int64
	// Target, if not "", replaces the letter's target: the one its
	// sentinel notifies now on the letter's channel, which its owner may
	// have fixed since the letter was written. A new target that has a
	// letter of the same message already (a sibling) refuses the retry
	// (RetryDuplicate).
	Target string
}

// RetryDuplicate returns the ECONFLICT error that refuses the retry of
// dead letter id to a target other than its own, as sibling, that
// target's own letter of the same message
// (OutboxStore.FindNotificationSibling), exists: the target has been sent
// the message, or will be, and the retry would send it a second time. A
// sibling that is a dead letter refuses it too: retrying the sibling, to
// its own target, sends the message there once, where retrying both would
// send it twice.
func RetryDuplicate(id int64, sibling *Notification) error {
	what := "this change"
	if sibling.ChangeID == 0 {
		what = "this message"
	}
	head := fmt.Sprintf("notification %d is not retried: its sentinel notifies by %s no more at this letter's target; the %[2]s target it notifies now", id, sibling.Channel)
	switch sibling.State {
	case NotificationSent:
		return Errorf(ECONFLICT, "%s has been sent %s already, by its own letter (notification %d); a retry would send it twice", head, what, sibling.ID)
	case NotificationDead:
		return Errorf(ECONFLICT, "%s already has its own letter for %s, notification %d, a dead letter too: retry that one, which goes to its own target", head, what, sibling.ID)
	}
	return Errorf(ECONFLICT, "%s already has its own letter for %s, notification %d, not sent yet (%s); a retry would send it twice", head, what, sibling.ID, sibling.State)
}
