package dev.strata.lang.funcs;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/**
 * What impure functions need from their surroundings: the directory that relative paths are
 * resolved against (Terraform uses the working directory, not the module's, which is why
 * configurations write {@code "${path.module}/x"}), the user's home for
 * {@code pathexpand}, the clock for {@code timestamp}, the plan's timestamp for
 * {@code plantimestamp} (empty where there is no plan, as in the console), and the source of
 * random UUIDs. Injected so that tests are deterministic.
 */
public record FunctionContext(
        Path baseDir, Path homeDir, Clock clock, Optional<Instant> planTimestamp, Supplier<UUID> uuids) {
    public FunctionContext {
        Objects.requireNonNull(baseDir);
        Objects.requireNonNull(homeDir);
        Objects.requireNonNull(clock);
        Objects.requireNonNull(planTimestamp);
        Objects.requireNonNull(uuids);
    }

    /** The real environment: working directory, user home, system clock, random UUIDs. */
    public static FunctionContext system(Path baseDir) {
        return new FunctionContext(
                baseDir,
                Path.of(System.getProperty("user.home")),
                Clock.systemUTC(),
                Optional.empty(),
                UUID::randomUUID);
    }

    public FunctionContext withPlanTimestamp(Instant t) {
        return new FunctionContext(baseDir, homeDir, clock, Optional.of(t), uuids);
    }
}
