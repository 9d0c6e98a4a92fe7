package dev.strata.cli.command;

import dev.strata.cli.view.CliDiagnostic;
import dev.strata.lang.funcs.GoDuration;
import dev.strata.state.LockRequest;
import java.time.Duration;

/** The {@code -lock} and {@code -lock-timeout} flags, declared the same way by every command that writes state. */
final class LockFlags {
    private final Flag<Boolean> lock;
    private final Flag<String> timeout;

    LockFlags(FlagSet flags) {
        lock = flags.bool(
                "lock",
                true,
                "Don't hold a state lock during the operation. This is dangerous if "
                        + "others might concurrently run commands against the same workspace.");
        timeout = flags.string("lock-timeout", "0s", "DURATION", "Duration to retry a state lock, e.g. 10s or 1m30s.");
    }

    /** The request for this invocation; failed for a malformed duration. */
    Parsed<LockRequest> parse(ParsedArgs args, String operation) {
        String t = args.get(timeout);
        Duration d = GoDuration.parse(t);
        if (d == null) {
            return Parsed.failed(
                    CliDiagnostic.error(
                            "Invalid value for -lock-timeout",
                            "The value \"" + t
                                    + "\" is not a duration. Write it as a number with a unit, for example 10s, 500ms or 1m30s."));
        }
        return Parsed.of(args.get(lock) ? LockRequest.of(operation, d) : LockRequest.none());
    }
}
