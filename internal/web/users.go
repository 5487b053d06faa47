package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/vigil-web/vigil"
)

// The Users page (/users): administrators list, add and remove users,
// reset their passwords and grant or revoke the role, by the rules of
// admin.go that vigil user follows too. Everybody else is refused (403)
// and has no link to it. A form that does what it asks redirects to the
// page (Post/Redirect/Get), which says what it did and shows a generated
// password once, from the server (flash.go); a refused one answers the
// page at once, with why and what was typed, as the sentinel editor does.
// Only a password's hash is stored, and nothing logs it.

// usersData is the Users page.
type usersData struct {
	Users []ListedUser
	Self  int64 // the signed-in administrator
	// Done says what the last form did, Problem why it was refused.
	Done, Problem string
	// Password is a generated password, for Email: shown now only.
	Password, Email string
	// Lost says that what a form did cannot be shown (flashLost).
	Lost string
	// MinPassword is the fewest characters of a typed password.
	MinPassword int
	// Add is what the add form held when it was refused, shown in it
	// again (but the password); empty otherwise.
	Add addUserForm
}

// addUserForm is what the Users page's add form holds.
type addUserForm struct {
	Email, Name string
	Admin       bool
}

// requireAdmin refuses a user who is not an administrator, and a request
// made with an API token: the page is a browser's; a script with an
// administrator's token has the JSON API (usersapi.go).
func requireAdmin(r *http.Request, u *vigil.User) error {
	if err := requireAdminRole(u); err != nil {
		return err
	}
	if byToken(r) {
		return vigil.Errorf(vigil.EFORBIDDEN, "the Users page is for a signed-in session: with an API token, use /api/v1/users")
	}
	return nil
}

func (s *Server) handleUsersPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	if err := requireAdmin(r, sess.User); err != nil {
		return err
	}
	// The users are read before the flash is taken: a store that cannot
	// read them answers an error and leaves the flash, for a reload to
	// show, where the flash was taken and lost with the page.
	users, err := ListUsers(r.Context(), s.Store)
	if err != nil {
		return err
	}
	f, err := s.takeFlash(w, r, sess)
	if err != nil {
		return err
	}
	return s.showUsers(w, r, sess, http.StatusOK, &usersData{Done: f.done, Password: f.secret, Email: f.secretOf, Lost: f.lost}, users)
}

// seeUsers redirects a form of the Users page to it, which says done and
// shows password, the generated password of email, if not empty.
func (s *Server) seeUsers(w http.ResponseWriter, r *http.Request, sess *session, done, password, email string) error {
	f := &flash{done: done}
	if password != "" {
		f.secret, f.secretOf = password, email
	}
	return s.seeOtherFlash(w, r, sess, "/users", f)
}

// usersPage shows the users with d's message: an error's status if d
// says why a form was refused.
func (s *Server) usersPage(w http.ResponseWriter, r *http.Request, sess *session, status int, d *usersData) error {
	users, err := ListUsers(r.Context(), s.Store)
	if err != nil {
		return err
	}
	return s.showUsers(w, r, sess, status, d, users)
}

// showUsers shows users, read by ListUsers, with d's message.
func (s *Server) showUsers(w http.ResponseWriter, r *http.Request, sess *session, status int, d *usersData, users []ListedUser) error {
	d.Users = users
	d.Self, d.MinPassword = sess.User.ID, MinPasswordLength
	return s.page(w, r, sess, status, "users", "Users", "users", d)
}

// refused shows the users page with why a form was refused, if err is a
// refusal by a rule (EINVALID, ECONFLICT, ENOTFOUND); other errors are
// returned, for the error page.
func (s *Server) refused(w http.ResponseWriter, r *http.Request, sess *session, err error) error {
	return s.refusedWith(w, r, sess, err, addUserForm{})
}

// refusedWith is refused, with the add form holding add again.
func (s *Server) refusedWith(w http.ResponseWriter, r *http.Request, sess *session, err error, add addUserForm) error {
	switch vigil.ErrorCode(err) {
	case vigil.EINVALID, vigil.ECONFLICT, vigil.ENOTFOUND:
		return s.usersPage(w, r, sess, errorStatus(vigil.ErrorCode(err)), &usersData{Problem: vigil.ErrorMessage(err), Add: add})
	}
	return err
}

// formUser returns the user with the id of the path, for an
// administrator in a signed-in session.
func (s *Server) formUser(r *http.Request, sess *session) (*vigil.User, error) {
	if err := requireAdmin(r, sess.User); err != nil {
		return nil, err
	}
	return s.pathUser(r, sess.User)
}

// checked reports whether a form's checkbox is ticked.
func checked(r *http.Request, name string) bool {
	v := r.PostFormValue(name)
	return v != "" && v != "off" && v != "0"
}

func (s *Server) handleUserCreatePage(w http.ResponseWriter, r *http.Request, sess *session) error {
	if err := requireAdmin(r, sess.User); err != nil {
		return err
	}
	typed := addUserForm{Email: r.PostFormValue("email"), Name: r.PostFormValue("name"), Admin: checked(r, "admin")}
	u, err := newRequestUser(typed.Email, typed.Name, typed.Admin)
	if err != nil {
		return s.refusedWith(w, r, sess, err, typed)
	}
	password, hash, generated, err := passwordField(r.PostFormValue("password"))
	if err != nil {
		return s.refusedWith(w, r, sess, err, typed)
	}
	u.PasswordHash = hash
	if err := s.Store.CreateUser(r.Context(), u); vigil.ErrorCode(err) == vigil.ECONFLICT {
		return s.refusedWith(w, r, sess, vigil.Errorf(vigil.ECONFLICT, "%s is already a user", u.Email), typed)
	} else if err != nil {
		return err
	}
	done := "Added " + u.Email + "."
	if u.Admin {
		done = "Added " + u.Email + ", an administrator."
	}
	if !generated {
		password = ""
	}
	return s.seeUsers(w, r, sess, done, password, u.Email)
}

func (s *Server) handleUserPasswordPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	u, err := s.formUser(r, sess)
	if err != nil {
		return s.refused(w, r, sess, err)
	}
	password, hash, generated, err := passwordField(r.PostFormValue("password"))
	if err != nil {
		return s.refused(w, r, sess, err)
	}
	// A new hash, and a new update time: the user's session cookies,
	// signed with both (sessionMAC), are refused from now on. Only the
	// password is written: a rename made since u was read is kept.
	if err := s.Store.SetUserPassword(r.Context(), u.ID, hash); err != nil {
		return s.refused(w, r, sess, err)
	}
	u.PasswordHash = hash
	done := "Set the password of " + u.Email + "; their sessions are signed out."
	if checked(r, "revoke_tokens") {
		n, err := DeleteTokens(r.Context(), s.Store, u)
		if err != nil {
			return err
		}
		done = strings.TrimSuffix(done, ".") + ", and their " + counted(n, "API token") + " revoked."
	}
	if !generated {
		password = ""
	}
	if u.ID == sess.User.ID {
		// Their own: the page answers at once, as before. The redirect's
		// page would find this session signed out by the new password,
		// which it would never show; and a reload sends the form again
		// with this session, refused (401), so it sets no other.
		done += " That is you: sign in again with the new password."
		return s.usersPage(w, r, sess, http.StatusOK, &usersData{Done: done, Password: password, Email: u.Email})
	}
	return s.seeUsers(w, r, sess, done, password, u.Email)
}

func (s *Server) handleUserAdminPage(w http.ResponseWriter, r *http.Request, sess *session) error {
	u, err := s.formUser(r, sess)
	if err != nil {
		return s.refused(w, r, sess, err)
	}
	var on bool
	switch r.PostFormValue("admin") {
	case "on":
		on = true
	case "off":
	default:
		return s.refused(w, r, sess, vigil.Errorf(vigil.EINVALID, "admin must be on or off"))
	}
	if err := SetAdmin(r.Context(), s.Store, u, on); err != nil {
		return s.refused(w, r, sess, err)
	}
	done := u.Email + " is now an administrator."
	if !on {
		done = u.Email + " is no longer an administrator."
	}
	if u.ID == sess.User.ID && !on {
		// No longer theirs to see: the page would refuse them.
		return seeOther(w, r, "/sentinels")
	}
	return s.seeUsers(w, r, sess, done, "", "")
}

func (s *Server) handleUserRemovePage(w http.ResponseWriter, r *http.Request, sess *session) error {
	u, err := s.formUser(r, sess)
	if err != nil {
		return s.refused(w, r, sess, err)
	}
	done, err := RemoveUser(r.Context(), s.Store, u, checked(r, "with_sentinels"), false)
	if refusal := errRefusal(err); refusal != nil && refusal.Reason == RefusedOwnsSentinels {
		return s.refused(w, r, sess, vigil.Errorf(vigil.ECONFLICT, "%s owns %s: tick “remove their sentinels too” to remove them with the user",
			u.Email, counted(refusal.Sentinels, "sentinel")))
	} else if err != nil {
		return s.refused(w, r, sess, err)
	}
	if u.ID == sess.User.ID {
		return seeOther(w, r, "/login")
	}
	msg := "Removed " + u.Email
	if with := done.With(); with != "" {
		msg += " with " + with
	}
	return s.seeUsers(w, r, sess, msg+".", "", "")
}

// errRefusal returns the removal refusal err is, or nil.
func errRefusal(err error) *RemoveRefusal {
	var r *RemoveRefusal
	if errors.As(err, &r) {
		return r
	}
	return nil
}
