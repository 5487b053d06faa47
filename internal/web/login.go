package web

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vigil-web/vigil"
)

type loginData struct {
	Next  string
	Email string
	Error string
}

// loginPage shows the sign-in form with a fresh double-submit CSRF token
// (a random value in a cookie and in the form; the POST must carry both).
func (s *Server) loginPage(w http.ResponseWriter, r *http.Request, status int, next, msg string) {
	token := ""
	if c, err := r.Cookie(loginCookie); err == nil && len(c.Value) >= 32 {
		token = c.Value
	} else {
		var err error
		if token, err = randomSecret(24); err != nil {
			http.Error(w, "Internal error.", http.StatusInternalServerError)
			return
		}
		s.setCookie(w, r, loginCookie, token, 3600, http.SameSiteLaxMode)
	}
	s.render(w, r, status, "login", &view{Title: "Sign in", CSRF: token,
		Data: loginData{Next: safeNext(next), Email: r.PostFormValue("email"), Error: msg}})
}

// safeNext keeps a redirect target only if it is a path on this server.
func safeNext(next string) string {
	// Browsers drop tabs and newlines from URLs and read a backslash as a
	// slash: "/\t/evil.example" and "/\\evil.example" lead away as
	// "//evil.example" does. A path of this server holds none of them.
	if strings.ContainsFunc(next, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
		return ""
	}
	u, err := url.Parse(next)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || !strings.HasPrefix(next, "/") ||
		strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/login") {
		return ""
	}
	return next
}

func (s *Server) handleLoginForm(w http.ResponseWriter, r *http.Request) {
	if _, err := s.readSession(r); err == nil {
		http.Redirect(w, r, "/sentinels", http.StatusSeeOther)
		return
	}
	s.loginPage(w, r, http.StatusOK, r.URL.Query().Get("next"), "")
}

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, 64<<10)
	c, err := r.Cookie(loginCookie)
	form := r.PostFormValue(csrfField)
	if err != nil || form == "" || subtle.ConstantTimeCompare([]byte(c.Value), []byte(form)) != 1 {
		s.loginPage(w, r, http.StatusForbidden, r.PostFormValue("next"), "The form expired or was sent without its CSRF token; try again.")
		return
	}
	email := strings.ToLower(strings.TrimSpace(r.PostFormValue("email")))
	address, now := clientAddress(r), s.now()
	try, wait := s.logins.take(address, email, now)
	if wait > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(int(wait/time.Second)+1))
		s.refusals.refused(address, true)
		s.loginPage(w, r, http.StatusTooManyRequests, r.PostFormValue("next"), "Too many failed sign-ins; try again in a minute.")
		return
	}
	u, err := s.Store.FindUserByEmail(r.Context(), email)
	if err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
		s.errorPage(w, r, nil, err)
		return
	}
	hash := dummyHash()
	if u != nil && err == nil && u.PasswordHash != "" {
		hash = u.PasswordHash
	}
	// An unknown account costs the same hashing as a wrong password, so
	// that the time of the answer does not tell which accounts exist.
	if !CheckPassword(hash, r.PostFormValue("password")) || hash == dummyHash() {
		s.refusals.refused(address, false)
		time.Sleep(failedLoginDelay) // no quick guessing; the attempt keeps its tokens
		s.loginPage(w, r, http.StatusUnauthorized, r.PostFormValue("next"), "Wrong email or password.")
		return
	}
	try.succeeded(now)
	value, err := s.newSessionCookie(u)
	if err != nil {
		s.errorPage(w, r, nil, err)
		return
	}
	s.setCookie(w, r, sessionCookie, value, int(sessionTTL/time.Second), http.SameSiteLaxMode)
	s.setCookie(w, r, loginCookie, "", -1, http.SameSiteLaxMode)
	next := safeNext(r.PostFormValue("next"))
	if next == "" {
		next = "/sentinels"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

// dummyHash is a password hash no password matches in practice (a random
// one, made once), checked for unknown accounts.
var dummyHash = sync.OnceValue(func() string {
	secret, err := randomSecret(24)
	if err != nil {
		secret = "vigil: no account"
	}
	h, err := HashPassword(secret)
	if err != nil {
		return "pbkdf2-sha256$1$AA$AA"
	}
	return h
})

// handleLogout signs the user out everywhere: it moves the user's update
// time, which every session cookie is signed with (sessionMAC), so a copy
// of the cookie kept elsewhere is refused too. TouchUser moves the time
// only: saving the user as read would write back a password that vigil
// user passwd changed between the read and the write.
func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request, sess *session) error {
	s.setCookie(w, r, sessionCookie, "", -1, http.SameSiteLaxMode) // whatever happens next
	if err := s.Store.TouchUser(r.Context(), sess.User.ID, s.now()); err != nil {
		return fmt.Errorf("sign out: %w", err)
	}
	return seeOther(w, r, "/login")
}
