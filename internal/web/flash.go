package web

import (
	"crypto/hmac"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The Users and Tokens pages' forms redirect to their page
// (Post/Redirect/Get) as the sentinels' forms do (seeOtherDone), so that
// a reload of the page they lead to sends nothing again: a reset password
// is not reset anew, a token not made twice. What such a form did says
// more than a fixed text of doneMessages (the user's email, the tokens
// revoked), and a new API token or a generated password must be shown,
// once, to the user who made it, while it goes in no address (the
// browser's history, a Referer, a proxy's log), no log and no cookie
// (which the browser keeps, and sends with every request).
//
// So the redirect's page takes them from the short-lived cookie
// flashCookieFor, HttpOnly and SameSite=Strict as doneCookie, and the
// secret from the server: the cookie carries a random id of 32 bytes,
// the page's path, the flash's expiry and what the form did, signed with
// a key of the server's secret for the user who sent the form
// (flashValue); the secret is held in this process's memory (flashes),
// under the id, and never goes in the cookie. A flash is
//   - taken by the page its redirect names, in a session of the user who
//     made it, alone: another page leaves it for its own; another user
//     (the cookie sent by another account's session) is not shown it,
//     and it is dropped;
//   - deleted as it is taken, its cookie and its secret: a reload, the
//     back button, find nothing;
//   - gone after flashTTL, as its cookie: the redirect is followed at
//     once;
//   - one of maxFlashes held at most (those with a secret, the rest
//     held in their cookie alone): past them the oldest is dropped (its
//     page says it cannot show it; a token or password lost so can be
//     made again),
//     so that forms sent without their redirect followed cannot grow the
//     memory.
//
// What the form did reads in any daemon that shares the server's secret:
// another daemon on the same store answering the page (behind a
// balancer without session affinity), or one restarted, says it. A
// secret lives in one daemon: another has none, and the page says so
// (flashSecretLost), as it says for an expired flash (flashLost): the
// token or password was made, and can be replaced. A cookie's flash
// taken by another daemon than the one that holds its secret leaves the
// secret held there until it expires, shown to nobody.

// flashCookie is the prefix of the cookie (flashCookieFor) that carries
// a flash from a form's redirect to the page it leads to: its id, the
// page's path, its expiry, whether a secret is held, what the form did
// and their signature, "id:/tokens:expiry:1:done:mac" (flashValue).
const flashCookie = "vigil_flash"

// flashCookieFor returns the name of the flash cookie of the page at
// path, one a page ("vigil_flash_tokens"): a form of the Users page sent
// in another tab while a token's redirect is followed does not replace
// the token's flash.
func flashCookieFor(path string) string {
	return flashCookie + strings.ReplaceAll(path, "/", "_")
}

// flashLost is what a page says for a flash it was sent for but does
// not hold.
const flashLost = "What the last form did cannot be shown: more than a minute passed, or another server of this site answered it. " +
	"A token or password it made is not shown again: revoke the token, or reset the password, to make another."

// flashSecretLost is what a page says, beside what the form did, for a
// secret its flash names but that this daemon does not hold.
const flashSecretLost = "The token or password the last form made cannot be shown: another server of this site answered it, or it restarted. " +
	"Revoke the token, or reset the password, to make another."

// flashTTL is how long a flash waits for its page.
const flashTTL = time.Minute

// maxFlashes is the most flashes held at once.
const maxFlashes = 1000

// flash is what a form did, for the page its redirect leads to.
type flash struct {
	user    int64  // the user who sent the form, the only one shown it
	page    string // the path of the page it is for
	expires time.Time

	// done says what the form did.
	done string
	// secret is a new API token or a generated password, shown once;
	// secretOf names its token, or the email of its user.
	secret, secretOf string
	// lost is flashLost for a page sent for a flash it does not hold,
	// or flashSecretLost for one whose secret it does not hold.
	lost string
	// held says the flash has a secret, held in the memory of the
	// daemon that made it (flashes), as its cookie says (flashValue).
	held bool
}

// flashes holds the flashes waiting for their page, by id.
type flashes struct {
	mu   sync.Mutex
	held map[string]*flash
}

func newFlashes() *flashes { return &flashes{held: map[string]*flash{}} }

// put holds f until now+flashTTL and returns its id: the expired are
// dropped first, then, past maxFlashes, the one that expires first.
func (fs *flashes) put(f *flash, now time.Time) (string, error) {
	id, err := randomSecret(32)
	if err != nil {
		return "", err
	}
	f.expires = now.Add(flashTTL)
	fs.mu.Lock()
	defer fs.mu.Unlock()
	for k, held := range fs.held {
		if !now.Before(held.expires) {
			delete(fs.held, k)
		}
	}
	for len(fs.held) >= maxFlashes {
		oldest := ""
		for k, held := range fs.held {
			if oldest == "" || held.expires.Before(fs.held[oldest].expires) {
				oldest = k
			}
		}
		delete(fs.held, oldest)
	}
	fs.held[id] = f
	return id, nil
}

// take returns the flash id names for page, shown to user, and deletes
// it; nil for an id held for no flash (expired, taken, dropped), and for
// another user or page (the flash is dropped all the same).
func (fs *flashes) take(id string, user int64, page string, now time.Time) *flash {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f := fs.held[id]
	delete(fs.held, id)
	if f == nil || !now.Before(f.expires) || f.user != user || f.page != page {
		return nil
	}
	return f
}

// seeOtherFlash redirects a form to the page at to, which shows f
// (takeFlash), made by the user of sess.
func (s *Server) seeOtherFlash(w http.ResponseWriter, r *http.Request, sess *session, to string, f *flash) error {
	f.user, f.page = sess.User.ID, to
	var id string
	var err error
	if f.secret != "" {
		f.held = true
		id, err = s.flashes.put(f, s.now()) // sets f.expires
	} else {
		f.expires = s.now().Add(flashTTL)
		id, err = randomSecret(32)
	}
	if err != nil {
		return err
	}
	s.setCookie(w, r, flashCookieFor(to), s.flashValue(id, f), int(flashTTL/time.Second), http.SameSiteStrictMode)
	return seeOther(w, r, to)
}

// flashValue returns the value of the cookie of flash f, whose id is id:
// the id, the page, the expiry (Unix seconds), whether a secret is held
// ("1") or not ("0"), what the form did (base64), and the signature of
// them all for f's user; fields separated by colons, none of which holds
// one.
func (s *Server) flashValue(id string, f *flash) string {
	fields := []string{id, f.page, strconv.FormatInt(f.expires.Unix(), 10), "0", b64.EncodeToString([]byte(f.done))}
	if f.held {
		fields[3] = "1"
	}
	mac := s.mac("flash", append([]string{strconv.FormatInt(f.user, 10)}, fields...)...)
	return strings.Join(append(fields, b64.EncodeToString(mac)), ":")
}

// readFlash returns the flash of a cookie's value (flashValue) for user,
// its id, and whether it reads: false for a value signed for another
// user, or changed, or not of the form.
func (s *Server) readFlash(value string, user int64) (f *flash, id string, ok bool) {
	fields := strings.Split(value, ":")
	if len(fields) != 6 {
		return nil, "", false
	}
	mac, err := b64.DecodeString(fields[5])
	if err != nil || !hmac.Equal(mac, s.mac("flash", append([]string{strconv.FormatInt(user, 10)}, fields[:5]...)...)) {
		return nil, fields[0], false
	}
	exp, err1 := strconv.ParseInt(fields[2], 10, 64)
	done, err2 := b64.DecodeString(fields[4])
	if err1 != nil || err2 != nil || fields[3] != "0" && fields[3] != "1" {
		return nil, fields[0], false
	}
	return &flash{user: user, page: fields[1], expires: time.Unix(exp, 0), done: string(done), held: fields[3] == "1"}, fields[0], true
}

// takeFlash returns the flash r's cookie carries for the page r asks for,
// for the user of sess, and clears the cookie; an empty flash for no
// cookie, or one for another page (left for it), and one that says
// flashLost for a flash not held. Only a GET takes it: a HEAD (a link
// checker's, a preview's) would throw the page, and the secret, away.
func (s *Server) takeFlash(w http.ResponseWriter, r *http.Request, sess *session) *flash {
	if r.Method != http.MethodGet {
		return &flash{}
	}
	c, err := r.Cookie(flashCookieFor(r.URL.Path))
	if err != nil {
		return &flash{}
	}
	_, rest, _ := strings.Cut(c.Value, ":")
	if page, _, _ := strings.Cut(rest, ":"); page != r.URL.Path {
		return &flash{}
	}
	s.setCookie(w, r, c.Name, "", -1, http.SameSiteStrictMode)
	now := s.now()
	f, id, ok := s.readFlash(c.Value, sess.User.ID)
	if !ok || !now.Before(f.expires) {
		s.flashes.take(id, sess.User.ID, r.URL.Path, now) // dropped: another user's, or expired
		return &flash{lost: flashLost}
	}
	if f.held {
		if held := s.flashes.take(id, sess.User.ID, f.page, now); held != nil {
			f.secret, f.secretOf = held.secret, held.secretOf
		} else {
			f.lost = flashSecretLost
		}
	}
	return f
}
