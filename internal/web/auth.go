package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/binary"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/vigil-web/vigil"
)

const (
	sessionCookie = "vigil_session"
	loginCookie   = "vigil_login" // the sign-in form's CSRF token (double submit)
	sessionTTL    = 7 * 24 * time.Hour
	csrfField     = "csrf"
	csrfHeader    = "X-CSRF-Token"
)

// session is a signed-in user, as the session cookie carries it.
type session struct {
	User *vigil.User
	// payload is the cookie's signed part; CSRF tokens are derived from it.
	payload string
	csrf    string
}

// key derives a purpose-bound key from the server's secret.
func (s *Server) key(purpose string) []byte {
	m := hmac.New(sha256.New, s.Secret)
	m.Write([]byte("vigil web " + purpose))
	return m.Sum(nil)
}

func (s *Server) mac(purpose string, parts ...string) []byte {
	m := hmac.New(sha256.New, s.key(purpose))
	for _, p := range parts {
		m.Write([]byte(p))
		m.Write([]byte{0})
	}
	return m.Sum(nil)
}

// b64 encodes the parts of cookies, CSRF tokens and password hashes. It is
// strict: a value has one spelling only, so a cookie changed in its last
// character is refused even where the change falls on bits that decoding
// ignores.
var b64 = base64.RawURLEncoding.Strict()

// newSessionCookie returns the cookie value of a new session of u: user
// id, expiry and a random nonce, signed with a key that also covers the
// user's password hash and the time of the user's last update, so that a
// password change, and signing out (which moves that time), end every
// session of the user.
func (s *Server) newSessionCookie(u *vigil.User) (string, error) {
	var raw [8 + 8 + 16]byte
	binary.BigEndian.PutUint64(raw[0:], uint64(u.ID))
	binary.BigEndian.PutUint64(raw[8:], uint64(s.now().Add(sessionTTL).Unix()))
	if _, err := rand.Read(raw[16:]); err != nil {
		return "", err
	}
	payload := b64.EncodeToString(raw[:])
	return payload + "." + b64.EncodeToString(s.sessionMAC(payload, u)), nil
}

// sessionMAC signs a session's payload for u.
func (s *Server) sessionMAC(payload string, u *vigil.User) []byte {
	return s.mac("session", payload, u.PasswordHash, strconv.FormatInt(u.UpdatedAt.UnixNano(), 10))
}

// readSession verifies the session cookie of r.
func (s *Server) readSession(r *http.Request) (*session, error) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return nil, vigil.Errorf(vigil.EUNAUTHORIZED, "sign in or give an API token")
	}
	payload, sig, ok := strings.Cut(c.Value, ".")
	raw, err1 := b64.DecodeString(payload)
	mac, err2 := b64.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil || len(raw) != 32 {
		return nil, vigil.Errorf(vigil.EUNAUTHORIZED, "invalid session; sign in again")
	}
	id := int64(binary.BigEndian.Uint64(raw[0:]))
	exp := time.Unix(int64(binary.BigEndian.Uint64(raw[8:])), 0)
	if !s.now().Before(exp) {
		return nil, vigil.Errorf(vigil.EUNAUTHORIZED, "session expired; sign in again")
	}
	u, err := s.Store.FindUserByID(r.Context(), id)
	if vigil.ErrorCode(err) == vigil.ENOTFOUND {
		return nil, vigil.Errorf(vigil.EUNAUTHORIZED, "invalid session; sign in again")
	} else if err != nil {
		return nil, err
	}
	if !hmac.Equal(mac, s.sessionMAC(payload, u)) {
		return nil, vigil.Errorf(vigil.EUNAUTHORIZED, "invalid session; sign in again")
	}
	return &session{User: u, payload: payload, csrf: b64.EncodeToString(s.mac("csrf", payload))}, nil
}

// authenticate returns the user of a request: by its bearer token, else by
// its session cookie. It returns EUNAUTHORIZED without either.
func (s *Server) authenticate(r *http.Request) (*session, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, secret, _ := strings.Cut(h, " ")
		if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(secret) == "" {
			return nil, vigil.Errorf(vigil.EUNAUTHORIZED, "the Authorization header must be Bearer <token>")
		}
		t, err := s.Store.FindTokenByHash(r.Context(), vigil.HashToken(strings.TrimSpace(secret)), s.now())
		if err != nil {
			if c := vigil.ErrorCode(err); c == vigil.EUNAUTHORIZED || c == vigil.ENOTFOUND {
				return nil, vigil.Errorf(vigil.EUNAUTHORIZED, "unknown or expired API token")
			}
			return nil, err
		}
		u, err := s.Store.FindUserByID(r.Context(), t.UserID)
		if err != nil {
			return nil, vigil.Errorf(vigil.EUNAUTHORIZED, "unknown or expired API token")
		}
		return &session{User: u}, nil
	}
	return s.readSession(r)
}

// byToken reports whether a request is authenticated by an API token
// rather than a session: authenticate takes the Authorization header
// before the cookie.
func byToken(r *http.Request) bool {
	return r.Header.Get("Authorization") != ""
}

// checkCSRF verifies the CSRF token of a state-changing request made with
// a session cookie: the form field csrf or the X-CSRF-Token header.
// Requests authenticated by an API token need none.
func (s *Server) checkCSRF(r *http.Request, sess *session) error {
	if sess.payload == "" || r.Method == http.MethodGet || r.Method == http.MethodHead {
		return nil
	}
	got := r.Header.Get(csrfHeader)
	if got == "" {
		if err := parseForm(r); err != nil {
			return err
		}
		got = r.PostFormValue(csrfField)
	}
	if got == "" || subtle.ConstantTimeCompare([]byte(got), []byte(sess.csrf)) != 1 {
		return vigil.Errorf(vigil.EFORBIDDEN, "missing or invalid CSRF token; reload the page")
	}
	return nil
}

// parseForm parses the form a request's body sends, urlencoded or
// multipart, and returns a domain error when it cannot: ETOOLARGE for a
// body over the limit. GET and HEAD requests send none: their query is
// read by the handlers that take one, and a malformed one is no error here.
func parseForm(r *http.Request) error {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return nil
	}
	var err error
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt == "multipart/form-data" {
		err = r.ParseMultipartForm(maxRequestBody)
	} else {
		err = r.ParseForm()
	}
	if err != nil {
		if big := tooLarge(err); big != nil {
			return big
		}
		// Not err, which quotes what does not parse.
		return vigil.Errorf(vigil.EINVALID, "invalid form: the query and the body must be URL-encoded (or the body multipart form data)")
	}
	return nil
}

// setCookie sets an HttpOnly cookie for the whole site, Secure over TLS
// (or behind a proxy that ends it, SecureCookies), for maxAge seconds
// (-1 clears it), sent on the requests sameSite allows.
func (s *Server) setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int, sameSite http.SameSite) {
	http.SetCookie(w, &http.Cookie{
		Name: name, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: sameSite,
		Secure: s.SecureCookies || r.TLS != nil,
	})
}

// apiFunc handles an authenticated API request.
type apiFunc func(w http.ResponseWriter, r *http.Request, u *vigil.User) error

func (s *Server) apiHandler(h apiFunc) http.Handler {
	return s.secure(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// No answer of the API is a page: should a browser show one, it
		// runs and loads nothing (a view that is a page sets its own).
		w.Header().Set("Content-Security-Policy", downloadCSP)
		sess, err := s.authenticate(r)
		if err == nil {
			err = s.checkCSRF(r, sess)
		}
		if err == nil {
			err = h(w, r, sess.User)
		}
		if err != nil {
			s.writeError(w, r, err)
		}
	}))
}
