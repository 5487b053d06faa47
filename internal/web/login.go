package web

import (
	"crypto/subtle"
	"net/http"
	"strconv"
	"strings"
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
		s.setCookie(w, r, loginCookie, token, 3600)
	}
	s.render(w, r, status, "login", &view{Title: "Sign in", CSRF: token,
		Data: loginData{Next: safeNext(next), Email: r.PostFormValue("email"), Error: msg}})
}

// safeNext keeps a redirect target only if it is a path on this server.
func safeNext(next string) string {
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") ||
		strings.HasPrefix(next, "/login") {
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
		s.logger().Warn("sign-in refused: too many failed attempts", "address", address)
		s.loginPage(w, r, http.StatusTooManyRequests, r.PostFormValue("next"), "Too many failed sign-ins; try again in a minute.")
		return
	}
	u, err := s.Store.FindUserByEmail(r.Context(), email)
	if err != nil && vigil.ErrorCode(err) != vigil.ENOTFOUND {
		s.errorPage(w, r, nil, err)
		return
	}
	if u == nil || err != nil || u.PasswordHash == "" || !CheckPassword(u.PasswordHash, r.PostFormValue("password")) {
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
	s.setCookie(w, r, sessionCookie, value, int(sessionTTL/time.Second))
	s.setCookie(w, r, loginCookie, "", -1)
	next := safeNext(r.PostFormValue("next"))
	if next == "" {
		next = "/sentinels"
	}
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request, _ *session) error {
	s.setCookie(w, r, sessionCookie, "", -1)
	return seeOther(w, r, "/login")
}
