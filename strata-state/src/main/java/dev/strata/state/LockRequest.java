package dev.strata.state;

import java.time.Duration;
import java.util.Objects;

/**
 * Whether and how to lock a state when opening it: the {@code -lock} and {@code -lock-timeout} flags
 * plus what the lock info will say the holder is doing.
 *
 * @param enabled   false for {@code -lock=false}: no lock is taken (not recommended, as Terraform says)
 * @param operation what the holder does, shown to others who wait, e.g. {@code "OperationTypeApply"}
 * @param info      free text for the lock info, usually empty
 * @param timeout   how long to wait for a held lock before failing; zero fails at once
 */
public record LockRequest(boolean enabled, String operation, String info, Duration timeout) {
    public LockRequest {
        Objects.requireNonNull(operation, "operation");
        info = info == null ? "" : info;
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("negative lock timeout " + timeout);
        }
    }

    public static LockRequest of(String operation, Duration timeout) {
        return new LockRequest(true, operation, "", timeout);
    }

    public static LockRequest none() {
        return new LockRequest(false, "", "", Duration.ZERO);
    }
}
