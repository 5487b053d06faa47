package main

import (
	"bufio"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/vigil-web/vigil/internal/web"
)

// The passwords vigil user add and vigil user passwd set.
const (
	// minPasswordLength is the fewest characters (runes) a password
	// given on standard input may have; a generated one has 24.
	minPasswordLength = 12
	// maxPasswordBytes bounds a password read from standard input.
	maxPasswordBytes = 1024
)

// readPassword returns the first line of r, its line ending ("\n" or
// "\r\n") stripped, as a password: one that a script pipes in (printf
// '%s\n' "$pw" | vigil user add ...) without it showing in the process
// list or the shell's history. Vigil never prints nor logs it (typed at
// a terminal, the terminal shows it).
func readPassword(r io.Reader) (string, error) {
	line, err := bufio.NewReaderSize(io.LimitReader(r, maxPasswordBytes+2), 64).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("password from standard input: %w", err)
	}
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	if err := checkPassword(line); err != nil {
		return "", fmt.Errorf("password from standard input: %w", err)
	}
	return line, nil
}

// checkPassword returns an error saying why a password is refused.
func checkPassword(pw string) error {
	switch n := utf8.RuneCountInString(pw); {
	case pw == "":
		return errors.New("empty first line")
	case len(pw) > maxPasswordBytes:
		return fmt.Errorf("too long: want at most %d bytes", maxPasswordBytes)
	case n < minPasswordLength:
		return fmt.Errorf("too short: %d characters, want at least %d", n, minPasswordLength)
	}
	return nil
}

// newPassword returns the password given on standard input (fromStdin),
// or a generated one (144 random bits, 24 characters of base64url) with
// generated true, and its stored form.
func newPassword(env *environment, fromStdin bool) (password, hash string, generated bool, err error) {
	if fromStdin {
		password, err = readPassword(env.stdin)
	} else {
		b := make([]byte, 18)
		if _, err = rand.Read(b); err == nil {
			password, generated = base64.RawURLEncoding.EncodeToString(b), true
		}
	}
	if err != nil {
		return "", "", false, err
	}
	hash, err = web.HashPassword(password)
	if err != nil {
		return "", "", false, fmt.Errorf("hash the password: %w", err)
	}
	return password, hash, generated, nil
}

// showPassword prints a generated password, the one time it is shown.
func showPassword(w io.Writer, password string) {
	fmt.Fprintf(w, "password: %s (shown only now)\n", password)
}
