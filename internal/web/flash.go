package web

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
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
// flashCookieFor, HttpOnly and SameSite=Strict as doneCookie, and from
// the store (vigil.FlashStore), which every daemon of the site shares:
// the cookie carries a random id of 32 bytes, the page's path, the
// flash's expiry and what the form did, signed with a key of the
// server's secret for the user who sent the form (flashValue); the store
// keeps, under the id, until the expiry, the secret sealed (sealFlash:
// AES-GCM, with another key of the server's secret, bound to the id, the
// user and the page), or nothing for a form that made none. Neither the
// cookie nor the store, nor their backups, hold the secret in clear. A
// flash is
//   - taken by the page its redirect names, in a session of the user who
//     made it, alone: another page leaves it for its own; another user
//     (the cookie sent by another account's session) is not shown it,
//     and it is dropped;
//   - taken from the store as it is shown, by one statement: a reload,
//     the back button, the cookie sent again (replayed, kept by a proxy,
//     copied), on this daemon or another, find nothing, and the page says
//     it cannot show it (flashLost);
//   - left by a HEAD of its page, and by a browser's prefetch of it,
//     answered an error (isPrefetch): the page opened shows it;
//   - gone after flashTTL, as its cookie: the redirect is followed at
//     once;
//   - read by any daemon that shares the server's secret and the store:
//     behind a balancer without session affinity, the daemon that answers
//     the page shows the token or password another made.

// flashCookie is the prefix of the cookie (flashCookieFor) that carries
// a flash from a form's redirect to the page it leads to: its id, the
// page's path, its expiry, whether a secret is kept, what the form did
// and their signature, "id:/tokens:expiry:1:done:mac" (flashValue).
const flashCookie = "vigil_flash"

// flashCookieFor returns the name of the flash cookie of the page at
// path, one a page ("vigil_flash_tokens"): a form of the Users page sent
// in another tab while a token's redirect is followed does not replace
// the token's flash.
func flashCookieFor(path string) string {
	return flashCookie + strings.ReplaceAll(path, "/", "_")
}

// flashLost is what a page says for a flash it was sent for but that is
// not kept: expired, shown already, or another user's.
const flashLost = "What the last form did cannot be shown: more than a minute passed, or it was shown already. " +
	"A token or password it made is not shown again: revoke the token, or reset the password, to make another."

// flashSecretLost is what a page says, beside what the form did, for a
// secret its flash names but that cannot be opened (the store's value
// is not the sealed secret of this flash).
const flashSecretLost = "The token or password the last form made cannot be shown. " +
	"Revoke the token, or reset the password, to make another."

// flashTTL is how long a flash waits for its page.
const flashTTL = vigil.MaxFlashTTL

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
	// lost is flashLost for a page sent for a flash not kept, or
	// flashSecretLost for one whose secret cannot be opened.
	lost string
	// held says the flash has a secret, sealed in the store, as its
	// cookie says (flashValue).
	held bool
}

// seeOtherFlash keeps f in the store and redirects a form to the page at
// to, which shows it (takeFlash), made by the user of sess.
func (s *Server) seeOtherFlash(w http.ResponseWriter, r *http.Request, sess *session, to string, f *flash) error {
	now := s.now()
	f.user, f.page, f.expires = sess.User.ID, to, now.Add(flashTTL)
	id, err := randomSecret(32)
	if err != nil {
		return err
	}
	var value []byte
	if f.secret != "" {
		f.held = true
		if value, err = s.sealFlash(id, f); err != nil {
			return err
		}
	}
	if err := s.Store.PutFlash(r.Context(), id, value, f.expires, now); err != nil {
		return err
	}
	s.setCookie(w, r, flashCookieFor(to), s.flashValue(id, f), int(flashTTL/time.Second), http.SameSiteStrictMode)
	return seeOther(w, r, to)
}

// flashValue returns the value of the cookie of flash f, whose id is id:
// the id, the page, the expiry (Unix seconds), whether a secret is kept
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

// flashAEAD returns the cipher that seals the secrets of flashes, keyed
// by the server's secret, which every daemon of the store shares.
func (s *Server) flashAEAD() (cipher.AEAD, error) {
	block, err := aes.NewCipher(s.key("flash seal")) // 32 bytes: AES-256
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

// flashBinding is what a sealed secret is bound to: the flash's id, its
// user and its page, so that it opens for that flash alone.
func flashBinding(id string, f *flash) []byte {
	return []byte(id + "\x00" + strconv.FormatInt(f.user, 10) + "\x00" + f.page)
}

// sealFlash returns f's secret and what it names, sealed for the store:
// a random nonce and the AES-GCM ciphertext, bound to the flash
// (flashBinding).
func (s *Server) sealFlash(id string, f *flash) ([]byte, error) {
	aead, err := s.flashAEAD()
	if err != nil {
		return nil, err
	}
	plain, err := json.Marshal([2]string{f.secret, f.secretOf})
	if err != nil {
		return nil, err
	}
	nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return nil, err
	}
	return aead.Seal(nonce, nonce, plain, flashBinding(id, f)), nil
}

// openFlash sets f's secret and what it names from sealed (sealFlash),
// and reports whether it opened.
func (s *Server) openFlash(sealed []byte, id string, f *flash) bool {
	aead, err := s.flashAEAD()
	if err != nil || len(sealed) < aead.NonceSize() {
		return false
	}
	plain, err := aead.Open(nil, sealed[:aead.NonceSize()], sealed[aead.NonceSize():], flashBinding(id, f))
	var secret [2]string
	if err != nil || json.Unmarshal(plain, &secret) != nil || secret[0] == "" {
		return false
	}
	f.secret, f.secretOf = secret[0], secret[1]
	return true
}

// isPrefetch reports whether r is a browser's prefetch or prerender of a
// page, made before, or without, the user opening it: Sec-Purpose
// ("prefetch", "prefetch;prerender"), and the older Purpose, X-Moz
// (Firefox) and X-Purpose (Safari's previews).
func isPrefetch(r *http.Request) bool {
	for _, h := range []string{"Sec-Purpose", "Purpose", "X-Moz", "X-Purpose"} {
		v := strings.ToLower(r.Header.Get(h))
		if strings.Contains(v, "prefetch") || strings.Contains(v, "prerender") || strings.Contains(v, "preview") {
			return true
		}
	}
	return false
}

// takeFlash returns the flash r's cookie carries for the page r asks for,
// for the user of sess, taken from the store, and clears the cookie; an
// empty flash for no cookie, or one for another page (left for it), and
// one that says flashLost for a flash not kept (expired, shown already,
// another user's). Only a GET takes it: a HEAD (a link checker's, a
// preview's) would throw the page, and the secret, away. A browser's
// prefetch (isPrefetch) of the page a flash is for would too, or keep
// the page to show without it: it is answered an error, EUNAVAILABLE,
// and leaves the flash. An error of the store leaves the cookie, for a
// reload to try again.
func (s *Server) takeFlash(w http.ResponseWriter, r *http.Request, sess *session) (*flash, error) {
	if r.Method != http.MethodGet {
		return &flash{}, nil
	}
	c, err := r.Cookie(flashCookieFor(r.URL.Path))
	if err != nil {
		return &flash{}, nil
	}
	_, rest, _ := strings.Cut(c.Value, ":")
	if page, _, _ := strings.Cut(rest, ":"); page != r.URL.Path {
		return &flash{}, nil
	}
	if isPrefetch(r) {
		// Answered an error, which a browser drops, never keeping it
		// for the navigation; the page followed then shows the flash.
		return nil, vigil.Errorf(vigil.EUNAVAILABLE, "a prefetch does not show what a form did: open the page")
	}
	now := s.now()
	f, id, ok := s.readFlash(c.Value, sess.User.ID)
	var sealed []byte
	if id != "" {
		// Taken whether shown or not: another user's, or an expired
		// one, is dropped.
		sealed, err = s.Store.TakeFlash(r.Context(), id, now)
		if err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
			return nil, err
		}
	}
	s.setCookie(w, r, c.Name, "", -1, http.SameSiteStrictMode)
	if !ok || err != nil || !now.Before(f.expires) || f.page != r.URL.Path {
		return &flash{lost: flashLost}, nil
	}
	if f.held && !s.openFlash(sealed, id, f) {
		f.lost = flashSecretLost
	}
	return f, nil
}
