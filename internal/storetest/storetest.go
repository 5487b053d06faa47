// Package storetest is the conformance suite that every vigil.Store
// backend runs: internal/sqlite always, internal/postgres when
// VIGIL_TEST_POSTGRES_DSN is set. It is imported by tests only.
//
// Each test opens a fresh, empty store with the function it is given, so a
// backend's tests decide isolation (a temporary file, a schema per test).
package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/vigil-web/vigil"
)

// Opener returns a fresh, empty store; it registers its own cleanup.
type Opener func(t *testing.T) vigil.Store

// Run runs the whole suite against the stores open returns.
func Run(t *testing.T, open Opener) {
	tests := map[string]func(*testing.T, vigil.Store){
		"ResourceEnsure":              testResourceEnsure,
		"ResourceFind":                testResourceFind,
		"ResourceHostDNSRefuses":      testResourceHostDNSRefuses,
		"ResourceSpellingsShared":     testResourceSpellingsShared,
		"ResourceErrorsHidePassword":  testResourceErrorsHidePassword,
		"ResourceDelete":              testResourceDelete,
		"LongURLs":                    testLongURLs,
		"VersionAppend":               testVersionAppend,
		"VersionAppendTwice":          testVersionAppendTwice,
		"BinaryVersions":              testBinaryVersions,
		"AppendBackToPatched":         testAppendBackToPatchedContent,
		"Transaction":                 testTransaction,
		"TransactionReadFails":        testTransactionReadFails,
		"VersionReadAsText":           testVersionReadAsText,
		"VersionURL":                  testVersionURL,
		"VersionsReadAsTextUnknown":   testVersionsReadAsTextUnknown,
		"VersionConflict":             testVersionConflict,
		"VersionQueries":              testVersionQueries,
		"LatestVersionByURL":          testLatestVersionByURL,
		"VersionInvalid":              testVersionInvalid,
		"VersionTimesOutOfRange":      testVersionTimesOutOfRange,
		"VersionTimeEpoch":            testVersionTimeEpoch,
		"TimePrecision":               testTimePrecision,
		"BodyEncodings":               testBodyEncodings,
		"PatchCycle":                  testPatchCycle,
		"PatchCycleConcurrent":        testPatchCycleConcurrent,
		"BlobDedupe":                  testBlobDedupe,
		"BlobRepair":                  testBlobRepair,
		"DeleteVersionsBefore":        testDeleteVersionsBefore,
		"Links":                       testLinks,
		"Sentinels":                   testSentinels,
		"SentinelClaim":               testSentinelClaim,
		"SentinelRelease":             testSentinelRelease,
		"SentinelNameUnique":          testSentinelNameUnique,
		"SentinelRenameUnique":        testSentinelRenameUnique,
		"SentinelsUpdated":            testSentinelsUpdatedTogether,
		"SentinelStatus":              testSentinelStatus,
		"SentinelsUpdatedIf":          testSentinelsUpdatedIf,
		"SentinelFeedRotation":        testSentinelFeedRotation,
		"SentinelFeedConcurrent":      testSentinelFeedRotationConcurrent,
		"SentinelTimeZone":            testSentinelTimeZone,
		"SentinelTimesOutOfRange":     testSentinelTimesOutOfRange,
		"ChangeTimesOutOfRange":       testChangeTimesOutOfRange,
		"NotificationTimesOutOfRange": testNotificationTimesOutOfRange,
		"UserTimesOutOfRange":         testUserTimesOutOfRange,
		"Users":                       testUsers,
		"UserTouch":                   testUserTouch,
		"UserAdmin":                   testUserAdmin,
		"UserSetPassword":             testUserSetPassword,
		"UserUpdateKeepsPassword":     testUserUpdateKeepsPassword,
		"UserSetNonAdminPassword":     testUserSetNonAdminPassword,
		"UserDisable":                 testUserDisable,
		"UserDisableRace":             testUserDisableRace,
		"UserDeleteNoSentinels":       testUserDeleteWithoutSentinels,
		"UserDeleteNoSentinelsRace":   testUserDeleteWithoutSentinelsRace,
		"UserIDsNeverReused":          testUserIDsNeverReused,
		"UserTimeZone":                testUserTimeZone,
		"Tokens":                      testTokens,
		"Changes":                     testChanges,
		"ChangePages":                 testChangePages,
		"ChangeReading":               testChangeReading,
		"ChangePagesOddURLs":          testChangePagesOddURLs,
		"IDsNeverReused":              testIDsNeverReused,
		"Outbox":                      testOutbox,
		"OutboxRetry":                 testOutboxRetry,
		"OutboxErrorText":             testOutboxErrorText,
		"OutboxRetryRemoved":          testOutboxRetryRemovedSentinel,
		"OutboxRetryTarget":           testOutboxRetryTarget,
		"OutboxRetrySibling":          testOutboxRetrySibling,
		"OutboxRemovedDigests":        testSentinelRemovalGivesUpItsDigests,
		"OutboxStaleMarks":            testOutboxStaleMarks,
		"OutboxRelease":               testOutboxRelease,
		"OrphanedClaims":              testOrphanedClaims,
		"OutboxAddressOrder":          testOutboxAddressOrder,
		"OutboxClaimLimit":            testOutboxClaimLimit,
		"OutboxRetriedLetterOrder":    testOutboxRetriedLetterOrder,
		"OutboxHeadRemoved":           testOutboxHeadRemoved,
		"OutboxHeadConcurrent":        testOutboxHeadConcurrent,
		"OutboxRetention":             testOutboxRetention,
		"OutboxRetentionBatches":      testOutboxRetentionBatches,
		"ConcurrentReadersWrite":      testConcurrent,
		"Secrets":                     testSecrets,
		"Flashes":                     testFlashes,
		"FlashTakenOnce":              testFlashTakenOnce,
		"SecretsConcurrent":           testSecretsConcurrent,
		"SecretsReplaceConcurrent":    testSecretsReplaceConcurrent,
	}
	for _, name := range sortedKeys(tests) {
		t.Run(name, func(t *testing.T) { tests[name](t, open(t)) })
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			if keys[j] < keys[i] {
				keys[i], keys[j] = keys[j], keys[i]
			}
		}
	}
	return keys
}

var t0 = time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)

func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := vigil.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// testConcurrent runs readers while one goroutine writes a stream of
// versions, and several writers on distinct resources.
func testConcurrent(t *testing.T, s vigil.Store) {
	ctx := context.Background()
	r, err := s.EnsureResource(ctx, "http://example.com/")
	must(t, err)
	first := appendBody(t, s, r, 0, t0, "v0")
	var wg sync.WaitGroup
	done := make(chan struct{})
	errs := make(chan error, 16)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				v, err := s.LatestVersion(ctx, r.ID)
				if err != nil {
					errs <- err
					return
				}
				if _, err := s.Body(ctx, v.ID); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	prev := first.ID
	for i := range 30 {
		v := appendBody(t, s, r, prev, t0.Add(time.Duration(i+1)*time.Minute), fmt.Sprint("v", i+1))
		prev = v.ID
	}
	var ww sync.WaitGroup
	for w := range 3 {
		ww.Add(1)
		go func() {
			defer ww.Done()
			res, err := s.EnsureResource(ctx, fmt.Sprintf("http://w%d.example/", w))
			if err != nil {
				errs <- err
				return
			}
			var prev int64
			for i := range 10 {
				body := fmt.Sprint(w, "/", i)
				v := &vigil.Version{ResourceID: res.ID, FetchedAt: t0, ContentHash: Hash([]byte(body)), Size: int64(len(body))}
				if err := s.AppendVersion(ctx, &vigil.Append{Version: v, PrevID: prev, Blob: &vigil.Blob{Hash: v.ContentHash, Size: v.Size, Data: []byte(body)}}); err != nil {
					errs <- err
					return
				}
				prev = v.ID
			}
		}()
	}
	ww.Wait()
	close(done)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	st, err := s.Stats(ctx)
	must(t, err)
	if st.Versions != 61 {
		t.Fatalf("%d versions, want 61", st.Versions)
	}
}
