package web

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/vigil-web/vigil"
)

// The JSON API of user management (/api/v1/users): what the Users page
// does, for administrators, by the same rules (admin.go). Unlike the page,
// it takes an administrator's API token: a script that provisions
// accounts has no browser. Such a token manages the users who are no
// administrators only: as a token makes no token (createToken), it makes
// no administrator (adds one or grants the role) and sets no
// administrator's password, its own included, which only a signed-in
// session does (sessionOnly); otherwise a token that expires in an hour
// made an administrator with a password it chose and signed in for good.
// A token's reset is written by the store only if the user is still no
// administrator (SetNonAdminPassword), so that a grant by a session while
// it runs does not let it through.
// A session's writes carry its CSRF token, as every other. A generated
// password is in the answer that made it only; a password hash never is.

// requireAdminRole refuses (403) a user who is not an administrator,
// signed in or by API token: the role check of the API and of the Users
// page (requireAdmin, which takes no token).
func requireAdminRole(u *vigil.User) error {
	if !u.Admin {
		return vigil.Errorf(vigil.EFORBIDDEN, "only an administrator manages the users")
	}
	return nil
}

// sessionOnly refuses (403) a request made with an API token to do what
// gives a lasting way in as an administrator (what): a token that could
// would outlive its expiry and its revocation.
func sessionOnly(r *http.Request, what string) error {
	if byToken(r) {
		return vigil.Errorf(vigil.EFORBIDDEN, "%s needs a signed-in session, not an API token", what)
	}
	return nil
}

// pathUser returns the user with the id of the path, for an
// administrator.
func (s *Server) pathUser(r *http.Request, caller *vigil.User) (*vigil.User, error) {
	if err := requireAdminRole(caller); err != nil {
		return nil, err
	}
	id, err := idParam("user id", r.PathValue("id"))
	if err != nil {
		return nil, err
	}
	return s.Store.FindUserByID(r.Context(), id)
}

func (s *Server) handleUserList(w http.ResponseWriter, r *http.Request, caller *vigil.User) error {
	if err := requireAdminRole(caller); err != nil {
		return err
	}
	list, err := ListUsers(r.Context(), s.Store)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, listBody[ListedUser]{Items: list, Total: len(list)})
	return nil
}

func (s *Server) handleUserGet(w http.ResponseWriter, r *http.Request, caller *vigil.User) error {
	u, err := s.pathUser(r, caller)
	if err != nil {
		return err
	}
	return s.writeListedUser(w, r, u)
}

// writeListedUser answers u as listed (ListUser), status 200.
func (s *Server) writeListedUser(w http.ResponseWriter, r *http.Request, u *vigil.User) error {
	a, err := ListUser(r.Context(), s.Store, u)
	if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, a)
	return nil
}

// withPassword is a user in the answer that set their password: the
// generated one, shown this once, under its own key ("password" is
// ListedUser's, whether they have one).
type withPassword struct {
	ListedUser
	Generated string `json:"generatedPassword,omitempty"`
}

func (s *Server) handleUserCreate(w http.ResponseWriter, r *http.Request, caller *vigil.User) error {
	if err := requireAdminRole(caller); err != nil {
		return err
	}
	var in struct {
		Email    string `json:"email"`
		Name     string `json:"name"`
		Admin    bool   `json:"admin"`
		Password string `json:"password"` // empty: generated
	}
	if err := readJSON(r, &in); err != nil {
		return err
	}
	if in.Admin {
		if err := sessionOnly(r, "adding an administrator"); err != nil {
			return err
		}
	}
	u, err := newRequestUser(in.Email, in.Name, in.Admin)
	if err != nil {
		return err
	}
	password, hash, generated, err := passwordField(in.Password)
	if err != nil {
		return err
	}
	u.PasswordHash = hash
	if err := s.Store.CreateUser(r.Context(), u); vigil.ErrorCode(err) == vigil.ECONFLICT {
		return fieldConflict("email", fmt.Sprintf("%s is already a user", u.Email))
	} else if err != nil {
		return err
	}
	out := withPassword{ListedUser: ListedUser{ID: u.ID, Email: u.Email, Name: u.Name, Admin: u.Admin, Password: true,
		TimeZone: u.TimeZone, CreatedAt: u.CreatedAt, UpdatedAt: u.UpdatedAt}}
	if generated {
		out.Generated = password
	}
	writeJSON(w, http.StatusCreated, out)
	return nil
}

func (s *Server) handleUserSetAdmin(w http.ResponseWriter, r *http.Request, caller *vigil.User) error {
	u, err := s.pathUser(r, caller)
	if err != nil {
		return err
	}
	var in struct {
		Admin *bool `json:"admin"`
	}
	if err := readJSON(r, &in); err != nil {
		return err
	}
	if in.Admin == nil {
		return fieldError("admin", "admin required: true grants the role, false revokes it")
	}
	if *in.Admin {
		if err := sessionOnly(r, "granting the administrator role"); err != nil {
			return err
		}
	}
	if err := SetAdmin(r.Context(), s.Store, u, *in.Admin); err != nil {
		return err
	}
	return s.writeListedUser(w, r, u)
}

func (s *Server) handleUserPassword(w http.ResponseWriter, r *http.Request, caller *vigil.User) error {
	u, err := s.pathUser(r, caller)
	if err != nil {
		return err
	}
	var in struct {
		Password     string `json:"password"` // empty: generated
		RevokeTokens bool   `json:"revokeTokens"`
	}
	if err := readJSON(r, &in); err != nil {
		return err
	}
	if u.Admin {
		if err := sessionOnly(r, "setting an administrator's password"); err != nil {
			return err
		}
	}
	password, hash, generated, err := passwordField(in.Password)
	if err != nil {
		return err
	}
	// Only the password, and a new update time: the user's sessions end.
	// A token's reset is written only if the user is still no
	// administrator, checked by the store as it writes: a session may
	// have granted the role since u was read.
	if byToken(r) {
		err = s.Store.SetNonAdminPassword(r.Context(), u.ID, hash)
		if vigil.ErrorCode(err) == vigil.ECONFLICT {
			err = sessionOnly(r, "setting an administrator's password")
		}
	} else {
		err = s.Store.SetUserPassword(r.Context(), u.ID, hash)
	}
	if err != nil {
		return err
	}
	u.PasswordHash = hash
	out := struct {
		Generated     string `json:"generatedPassword,omitempty"` // shown this once
		TokensRevoked int    `json:"tokensRevoked"`
	}{}
	if in.RevokeTokens {
		if out.TokensRevoked, err = DeleteTokens(r.Context(), s.Store, u); err != nil {
			return err
		}
	}
	if generated {
		out.Generated = password
	}
	writeJSON(w, http.StatusOK, out)
	return nil
}

func (s *Server) handleUserDelete(w http.ResponseWriter, r *http.Request, caller *vigil.User) error {
	u, err := s.pathUser(r, caller)
	if err != nil {
		return err
	}
	withSentinels := false
	if v := r.URL.Query().Get("withSentinels"); v != "" {
		if withSentinels, err = strconv.ParseBool(v); err != nil {
			return vigil.Errorf(vigil.EINVALID, "withSentinels must be true or false")
		}
	}
	done, err := RemoveUser(r.Context(), s.Store, u, withSentinels, false)
	if refusal := errRefusal(err); refusal != nil && refusal.Reason == RefusedOwnsSentinels {
		return vigil.Errorf(vigil.ECONFLICT, "%s owns %s: remove them first, or give withSentinels=true to remove them with the user",
			u.Email, counted(refusal.Sentinels, "sentinel"))
	} else if err != nil {
		return err
	}
	writeJSON(w, http.StatusOK, struct {
		Sentinels int `json:"sentinels"` // removed with the user
		Tokens    int `json:"tokens"`    // API tokens revoked
	}{done.Sentinels, done.Tokens})
	return nil
}
