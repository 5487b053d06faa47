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
// and has no link to it. A generated password is shown once, in the
// answer to the form that made it; only its hash is stored, and nothing
// logs it.

// usersData is the Users page.
type usersData struct {
	Users []ListedUser
	Self  int64 // the signed-in administrator
	// Done says what the last form did, Problem why it was refused.
	Done, Problem string
	// Password is a generated password, for Email: shown now only.
	Password, Email string
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
	return s.usersPage(w, r, sess, http.StatusOK, &usersData{})
}

// usersPage shows the users with d's message: an error's status if d
// says why a form was refused.
func (s *Server) usersPage(w http.ResponseWriter, r *http.Request, sess *session, status int, d *usersData) error {
	users, err := ListUsers(r.Context(), s.Store)
	if err != nil {
		return err
	}
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
	d := &usersData{Done: "Added " + u.Email + "."}
	if u.Admin {
		d.Done = "Added " + u.Email + ", an administrator."
	}
	if generated {
		d.Password, d.Email = password, u.Email
	}
	return s.usersPage(w, r, sess, http.StatusCreated, d)
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
	if u.ID == sess.User.ID {
		done += " That is you: sign in again with the new password."
	}
	d := &usersData{Done: done}
	if generated {
		d.Password, d.Email = password, u.Email
	}
	return s.usersPage(w, r, sess, http.StatusOK, d)
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
	return s.usersPage(w, r, sess, http.StatusOK, &usersData{Done: done})
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
	return s.usersPage(w, r, sess, http.StatusOK, &usersData{Done: msg + "."})
}

// errRefusal returns the removal refusal err is, or nil.
func errRefusal(err error) *RemoveRefusal {
	var r *RemoveRefusal
	if errors.As(err, &r) {
		return r
	}
	return nil
}
