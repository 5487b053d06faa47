package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// passwdMeanwhile is the store of a sign-out while the user's password is
// changed elsewhere (vigil user passwd, another process): passwd runs,
// once, when the sign-out first writes the user, before the write.
type passwdMeanwhile struct {
	vigil.Store
	passwd func()
}

func (s *passwdMeanwhile) meanwhile() {
	if f := s.passwd; f != nil {
		s.passwd = nil
		f()
	}
}

func (s *passwdMeanwhile) UpdateUser(ctx context.Context, u *vigil.User) error {
	s.meanwhile()
	return s.Store.UpdateUser(ctx, u)
}

func (s *passwdMeanwhile) TouchUser(ctx context.Context, id int64, at time.Time) error {
	s.meanwhile()
	return s.Store.TouchUser(ctx, id, at)
}

// TestLogoutKeepsPasswordChange: a password changed while the user signs
// out stays changed, and the sign-out still ends every session, those of
// the new password too. Sign-out read the user and saved them back to
// move their update time: a change committed between the read and the
// write was undone, the old password signing in again.
func TestLogoutKeepsPasswordChange(t *testing.T) {
	s, u := newTestServer(t)
	ctx := context.Background()
	st := s.Store
	old, err := s.newSessionCookie(u)
	if err != nil {
		t.Fatal(err)
	}
	r := httptest.NewRequest("POST", "/logout", nil)
	r.AddCookie(&http.Cookie{Name: sessionCookie, Value: old})
	sess, err := s.readSession(r)
	if err != nil {
		t.Fatal(err)
	}
	var newer string // a session signed in with the new password
	ps := &passwdMeanwhile{Store: st, passwd: func() {
		hash, err := HashPassword("changed")
		if err != nil {
			t.Fatal(err)
		}
		if err := st.SetUserPassword(ctx, u.ID, hash); err != nil {
			t.Fatal(err)
		}
		fresh, err := st.FindUserByID(ctx, u.ID)
		if err != nil {
			t.Fatal(err)
		}
		if newer, err = s.newSessionCookie(fresh); err != nil {
			t.Fatal(err)
		}
	}}
	s.Store = ps
	w := httptest.NewRecorder()
	if err := s.handleLogout(w, r, sess); err != nil {
		t.Fatalf("sign out: %v", err)
	}
	if ps.passwd != nil {
		t.Fatal("the sign-out wrote nothing")
	}
	if w.Code != http.StatusSeeOther {
		t.Errorf("sign out: %d, want %d", w.Code, http.StatusSeeOther)
	}
	got, err := st.FindUserByID(ctx, u.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !CheckPassword(got.PasswordHash, "changed") || CheckPassword(got.PasswordHash, "pw") {
		t.Error("the password changed during the sign-out was undone")
	}
	for name, v := range map[string]string{"the signed-out session": old, "a session of the new password": newer} {
		r := httptest.NewRequest("GET", "/", nil)
		r.AddCookie(&http.Cookie{Name: sessionCookie, Value: v})
		if _, err := s.readSession(r); vigil.ErrorCode(err) != vigil.EUNAUTHORIZED {
			t.Errorf("%s after signing out: %v, want EUNAUTHORIZED", name, err)
		}
	}
}
