package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

// ownNotification returns notification idText of u; ENOTFOUND for
// another's.
func (s *Server) ownNotification(ctx context.Context, u *vigil.User, idText string) (*vigil.Notification, error) {
	id, err := idParam("notification id", idText)
	if err != nil {
		return nil, err
	}
	n, err := s.Store.FindNotificationByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if n.UserID != u.ID {
		return nil, vigil.Errorf(vigil.ENOTFOUND, "notification %d not found", id)
	}
	return n, nil
}

// letterSentinel returns the sentinel of u's notification n, nil if it
// names none, and ECONFLICT if it was removed: its dead letter is not
// retried, whether the removal gave it up (vigil.SentinelRemoved, which
// the store refuses) or it had died before. Nobody wants the messages of
// a sentinel they removed.
func (s *Server) letterSentinel(ctx context.Context, u *vigil.User, n *vigil.Notification) (*vigil.Sentinel, error) {
	id := n.SentinelID()
	if id == 0 {
		return nil, nil
	}
	sen, err := s.Store.FindSentinelByID(ctx, id)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND || err == nil && sen.OwnerID != u.ID {
		return nil, vigil.Errorf(vigil.ECONFLICT, "notification %d is not retried: %s", n.ID, vigil.SentinelRemoved)
	}
	return sen, err
}

// unsendable returns ECONFLICT, saying why, if this server cannot send
// dead letter n by its channel (Server.Unsendable): its retry would die
// again at once.
func (s *Server) unsendable(n *vigil.Notification) error {
	if s.Unsendable == nil {
		return nil
	}
	if why := s.Unsendable(n.Channel); why != "" {
		return vigil.Errorf(vigil.ECONFLICT, "notification %d is not retried: %s", n.ID, why)
	}
	return nil
}

// duplicateRetry returns the ECONFLICT error (vigil.RetryDuplicate) that
// the store's retry of dead letter n to target gives when target is not
// n's own and has a letter of n's message already (a sibling), for the
// Notifications page, which offers no retry that would be refused.
func (s *Server) duplicateRetry(ctx context.Context, n *vigil.Notification, target string) error {
	if target == n.Target {
		return nil
	}
	sib, err := s.Store.FindNotificationSibling(ctx, n.ID, target)
	switch {
	case err == nil:
		return vigil.RetryDuplicate(n.ID, sib)
	case vigil.ErrorCode(err) == vigil.ENOTFOUND:
		return nil
	}
	return fmt.Errorf("notification %d: its sibling: %w", n.ID, err)
}

// retryNotification gives u's dead letter idText another chance, due now,
// to the target its sentinel notifies now (retryTarget), and wakes the
// delivery. ECONFLICT if it is not a dead letter, if its sentinel was
// removed, before or while the retry was asked for (the store retries
// the letter only if its sentinel exists as it writes), if its
// sentinel gives it no target, if that target is not its own and has a
// letter of its message already (vigil.RetryDuplicate, which the store
// judges as it writes), or if this server cannot send by its channel
// (unsendable).
func (s *Server) retryNotification(ctx context.Context, u *vigil.User, idText string) (*vigil.Notification, error) {
	n, err := s.ownNotification(ctx, u, idText)
	if err != nil {
		return nil, err
	}
	retry := vigil.NotificationRetry{At: s.now().UTC(), SentinelID: n.SentinelID()}
	if n.State == vigil.NotificationDead {
		sen, err := s.letterSentinel(ctx, u, n)
		if err != nil {
			return nil, err
		}
		if sen != nil {
			if retry.Target, err = retryTarget(sen, n); err != nil {
				return nil, err
			}
		}
		if err := s.unsendable(n); err != nil {
			return nil, err
		}
	}
	if err := s.Store.RetryNotification(ctx, n.ID, retry); err != nil {
		return nil, err
	}
	if s.KickOutbox != nil {
		s.KickOutbox()
	}
	return s.Store.FindNotificationByID(ctx, n.ID)
}

func (s *Server) handleNotificationRetry(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	n, err := s.retryNotification(r.Context(), u, r.PathValue("id"))
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, newNotificationBody(n))
	return nil
}

// notificationBody is a notification as the API gives it: its nextAttempt
// only while an attempt is to come (pending or failed). A sent letter or
// a dead letter keeps the end of its last try's lease there, which read
// as a time it would be sent again.
type notificationBody struct {
	*vigil.Notification
	NextAttempt *time.Time `json:"nextAttempt,omitempty"`
}

// newNotificationBody returns n as the API gives it, its payload with the
// id of its change (withChangeID).
func newNotificationBody(n *vigil.Notification) *notificationBody {
	withChangeID(n)
	b := &notificationBody{Notification: n}
	if n.State == vigil.NotificationPending || n.State == vigil.NotificationFailed || n.State == "" {
		at := n.NextAttempt
		b.NextAttempt = &at
	}
	return b
}

// notificationRow is a line of the dashboard's notifications page.
type notificationRow struct {
	*vigil.Notification
	// Target is the target as shown: an address, or the scheme and host
	// of a URL, whose path and query may hold the secrets of a hook.
	Target   string
	Subject  string
	Sentinel string
	// Retryable is set for a dead letter that may be retried: not one of
	// a sentinel removed, nor one whose retry retryTarget refuses, or
	// sends to a target that has its own letter of the message
	// (duplicateRetry), or whose channel this server cannot send on
	// (unsendable), whose reason NotRetried says.
	Retryable  bool
	NotRetried string
}

// shownTarget returns what the dashboard shows of a target: an address as
// it is, an HTTP URL's scheme and host, and only the scheme of another
// URL (chat URLs hold their tokens in the host or path). A target that
// does not parse shows its scheme at most: it may be a URL all the same,
// with its secrets.
func shownTarget(target string) string {
	u, err := url.Parse(target)
	if err != nil {
		if scheme, _, ok := strings.Cut(target, "://"); ok && scheme != "" && !strings.ContainsAny(scheme, "/?#@ ") {
			return scheme + "://…"
		}
		return "…"
	}
	if u.Scheme == "" || u.Opaque != "" {
		if u.Scheme == "mailto" {
			return u.Opaque
		}
		return target
	}
	switch u.Scheme {
	case "http", "https":
		out := u.Scheme + "://" + u.Host
		if (u.Path != "" && u.Path != "/") || u.RawQuery != "" {
			out += "/…"
		}
		return out
	}
	return u.Scheme + "://…"
}

// notificationsData is the notifications page.
type notificationsData struct {
	Rows  []*notificationRow
	State vigil.NotificationState
	Pager *pager
	// Digests are the user's sentinels that send digests, with when
	// each sends its next (nextDigests).
	Digests []*digestRow
}

// notRetried returns why the retry of dead letter n, of sentinel sen (nil
// for a letter of no sentinel), is refused, as the retry itself would
// judge it (retryNotification), or "" if it is not.
func (s *Server) notRetried(ctx context.Context, n *vigil.Notification, sen *vigil.Sentinel) (string, error) {
	if sen != nil {
		target, err := retryTarget(sen, n)
		if err == nil {
			err = s.duplicateRetry(ctx, n, target)
		}
		if vigil.ErrorCode(err) == vigil.ECONFLICT {
			return vigil.ErrorMessage(err), nil
		} else if err != nil {
			return "", err
		}
	}
	if err := s.unsendable(n); err != nil {
		return vigil.ErrorMessage(err), nil
	}
	return "", nil
}

func (s *Server) handleNotificationsPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	p, err := dashboardPage(r, 50, 500)
	if err != nil {
		return err
	}
	st, err := stateParam(r)
	if err != nil {
		return err
	}
	f := vigil.NotificationFilter{UserID: sess.User.ID, State: st, Offset: p.Offset, Limit: p.Limit, Descending: true}
	list, total, err := s.Store.FindNotifications(r.Context(), f)
	if err != nil {
		return err
	}
	p.Total, p.Shown = total, len(list)
	data := &notificationsData{State: f.State, Pager: p}
	if data.Digests, err = s.nextDigests(r.Context(), sess.User); err != nil {
		return err
	}
	var mine map[int64]*vigil.Sentinel // u's sentinels, read for the first dead letter
	for _, n := range list {
		row := &notificationRow{Notification: n, Target: shownTarget(n.Target)}
		if n.State == vigil.NotificationDead && n.LastError != vigil.SentinelRemoved {
			if mine == nil {
				sens, _, err := s.Store.FindSentinels(r.Context(), vigil.SentinelFilter{OwnerID: sess.User.ID})
				if err != nil {
					return err
				}
				mine = make(map[int64]*vigil.Sentinel, len(sens))
				for _, sen := range sens {
					mine[sen.ID] = sen
				}
			}
			id := n.SentinelID()
			sen := mine[id]
			row.Retryable = id == 0 || sen != nil
			if !row.Retryable {
				// Removed since it died, keeping its own error:
				// said as the retry would say it (letterSentinel).
				row.NotRetried = fmt.Sprintf("notification %d is not retried: %s", n.ID, vigil.SentinelRemoved)
			} else {
				why, err := s.notRetried(r.Context(), n, sen)
				if err != nil {
					return err
				}
				row.Retryable, row.NotRetried = why == "", why
			}
		}
		var m struct {
			Sentinel string `json:"sentinel"`
			Subject  string `json:"subject"`
		}
		if json.Unmarshal(n.Payload, &m) == nil {
			row.Subject, row.Sentinel = m.Subject, m.Sentinel
		}
		data.Rows = append(data.Rows, row)
	}
	return s.page(w, r, sess, http.StatusOK, "notifications", "Notifications", "notifications", data)
}

func (s *Server) handleNotificationRetryPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	n, err := s.retryNotification(r.Context(), sess.User, r.PathValue("id"))
	if err != nil {
		return err
	}
	return seeOther(w, r, "/notifications#notification-"+strconv.FormatInt(n.ID, 10))
}

// stateParam returns the notification state the request's state
// parameter names, "" for every state.
func stateParam(r *http.Request) (vigil.NotificationState, error) {
	switch st := vigil.NotificationState(r.URL.Query().Get("state")); st {
	case "", vigil.NotificationPending, vigil.NotificationFailed, vigil.NotificationSent, vigil.NotificationDead:
		return st, nil
	default:
		return "", vigil.Errorf(vigil.EINVALID, "state must be pending, failed, sent or dead")
	}
}
