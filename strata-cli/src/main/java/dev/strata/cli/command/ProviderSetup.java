package dev.strata.cli.command;

import dev.strata.addr.Provider;
import dev.strata.addr.VersionConstraint;
import dev.strata.config.ConfigLoader;
import dev.strata.config.ConfigTree;
import dev.strata.config.ModuleConfig;
import dev.strata.config.ProviderConfig;
import dev.strata.config.ProviderRequirements;
import dev.strata.config.RequiredProvider;
import dev.strata.config.ResourceConfig;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import dev.strata.provider.ProviderFactory;
import dev.strata.provider.ProviderRegistry;
import dev.strata.tfplugin.InstalledProviders;
import dev.strata.tfplugin.install.LockFile;
import dev.strata.tfplugin.install.Platform;
import dev.strata.tfplugin.install.ProviderInstaller;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The provider part of {@code strata init} and {@code strata providers lock}: built-in providers
 * serve their own addresses; every other required provider is installed by
 * {@link ProviderInstaller} and recorded in {@code .terraform.lock.hcl}.
 */
public final class ProviderSetup {
    private ProviderSetup() {}

    /**
     * The problems found, whether a lock file was written where there was none, and the providers whose lock
     * entries this install wrote (new or changed) from packages it hashed itself: a mirror's packages come
     * without the registry's checksums for other platforms, so those entries hold this platform's alone.
     */
    record Outcome(Diagnostics diagnostics, boolean lockCreated, List<Provider> hashedHere) {
        Outcome {
            hashedHere = List.copyOf(hashedHere);
        }
    }

    /** A line of init's provider section: as printed (after "- ") and as its {@code -json} message. */
    public record Step(String line, String message) {
        /** A step worded the same in both. */
        static Step of(String text) {
            return new Step(text, text);
        }
    }

    /** Terraform's error for a {@code terraform.io/builtin/...} provider this version does not have. */
    static Diagnostic missingBuiltIn(Provider p) {
        return Diagnostic.error(
                "Missing required provider",
                "This configuration requires built-in provider " + p
                        + ", but that provider isn't available in this Strata version.",
                null);
    }

    static ProviderRegistry builtins() {
        return ProviderRegistry.load(ProviderSetup.class.getClassLoader());
    }

    static Path home(CommandContext context) {
        String h = context.getenv("HOME");
        return Path.of(h != null ? h : System.getProperty("user.home"));
    }

    /** Reads the lock file; absent is empty, unparseable is an error. */
    static Result<LockFile> readLock(Path dir) {
        Path f = dir.resolve(LockFile.FILENAME);
        if (!Files.isRegularFile(f)) {
            return Result.of(LockFile.empty());
        }
        try {
            return LockFile.parse(Files.readAllBytes(f), LockFile.FILENAME);
        } catch (IOException e) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to read the dependency lock file",
                            "Could not read " + IoProblems.describe(f, e) + ".",
                            null)));
        }
    }

    static void writeLock(Path dir, LockFile lock) throws IOException {
        Path out = dir.resolve(LockFile.FILENAME);
        Path tmp = Files.createTempFile(dir, ".terraform.lock", ".tmp");
        try {
            Files.writeString(tmp, lock.render(), StandardCharsets.UTF_8);
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /**
     * Installs what {@code tree} requires. {@code progress} gets each step, as Terraform reports it. The lock
     * file is written only when nothing failed and it changed.
     */
    static Outcome install(
            CommandContext context,
            ConfigTree tree,
            boolean upgrade,
            Consumer<Step> progress,
            java.util.function.BooleanSupplier stopped) {
        return installRequired(context, ProviderRequirements.of(tree), upgrade, progress, stopped);
    }

    /**
     * Installs the providers {@code required} names (each with its version constraints) as
     * {@link #install(CommandContext, ConfigTree, boolean, Consumer, java.util.function.BooleanSupplier)} does for a configuration's: what
     * {@code strata stacks init} does for a Stack's {@code required_providers}.
     */
    public static Diagnostics install(
            CommandContext context,
            java.util.SortedMap<Provider, List<VersionConstraint>> required,
            boolean upgrade,
            Consumer<Step> progress) {
        return installRequired(context, required, upgrade, progress, () -> false)
                .diagnostics();
    }

    private static Outcome installRequired(
            CommandContext context,
            Map<Provider, List<VersionConstraint>> required,
            boolean upgrade,
            Consumer<Step> progress,
            java.util.function.BooleanSupplier stopped) {
        Path dir = context.workingDir();
        Diagnostics.Builder diags = Diagnostics.builder();
        Result<LockFile> previous = readLock(dir);
        diags.addAll(previous.diagnostics());
        if (previous.value() == null || previous.hasErrors()) {
            return new Outcome(diags.build(), false, List.of());
        }
        ProviderRegistry builtins = builtins();
        List<ProviderInstaller.Requirement> external = new ArrayList<>();
        List<LockFile.Entry> keep = new ArrayList<>();
        for (Map.Entry<Provider, List<VersionConstraint>> e : required.entrySet()) {
            Provider p = e.getKey();
            List<String> constraints =
                    e.getValue().stream().map(VersionConstraint::source).toList();
            if (p.isBuiltIn()) {
                if (p.isKnownBuiltIn()) {
                    progress.accept(Step.of(p + " is built in to Strata"));
                } else {
                    diags.add(missingBuiltIn(p));
                }
                continue;
            }
            Provider a = p;
            if (builtins.has(a)) {
                Result<ProviderFactory> f = builtins.resolve(a, constraints(constraints));
                diags.addAll(f.diagnostics());
                if (f.value() != null) {
                    progress.accept(
                            Step.of("Using " + p.forDisplay() + " v" + f.value().version() + ", built in to Strata"));
                }
                // A lock entry Terraform wrote for this provider stays, so Terraform can still use the directory.
                previous.value().entry(p).ifPresent(keep::add);
                continue;
            }
            external.add(new ProviderInstaller.Requirement(p, constraints));
        }
        ProviderInstaller.Options options = options(context, upgrade);
        Result<ProviderInstaller.Outcome> r = ProviderInstaller.install(
                options, external, previous.value(), step -> progress.accept(new Step(step.line(), step.message())));
        diags.addAll(r.diagnostics());
        LockFile lock = r.value().lock();
        for (LockFile.Entry e : keep) {
            lock = lock.with(e);
        }
        if (stopped.getAsBoolean()) {
            // As Terraform: what was installed stays, but the lock file does not record an interrupted init.
            diags.add(InitCommand.canceled("Provider installation"));
        }
        boolean existed = Files.isRegularFile(dir.resolve(LockFile.FILENAME));
        boolean created = false;
        if (!diags.hasErrors()
                && !lock.equals(previous.value())
                && !(lock.providers().isEmpty() && !existed)) {
            try {
                writeLock(dir, lock);
                created = !existed;
            } catch (IOException ex) {
                diags.add(Diagnostic.error(
                        "Failed to write the dependency lock file",
                        "Could not write " + IoProblems.describe(LockFile.FILENAME, ex) + ".",
                        null));
            }
        }
        List<Provider> hashedHere = new ArrayList<>();
        if (!diags.hasErrors()) {
            for (ProviderInstaller.Installed i : r.value().installed()) {
                if (!lock.entry(i.address()).equals(previous.value().entry(i.address()))) {
                    hashedHere.add(i.address());
                }
            }
        }
        return new Outcome(diags.build(), created, hashedHere);
    }

    /** Where and for what platform install, lock and mirror work: the working directory's data dir and the plugin home. */
    static ProviderInstaller.Options options(CommandContext context, boolean upgrade) {
        Path dir = context.workingDir();
        return new ProviderInstaller.Options(
                dir,
                InstalledProviders.dataDir(dir, context.env()),
                context.env(),
                home(context),
                Platform.current(),
                upgrade);
    }

    /**
     * Starts hashing, on a background thread, the packages {@link #install} will select for the providers
     * the lock file names and the root module requires, so that the hashing overlaps init's module installation and backend set-up
     * instead of following them: a provider package met for the first time is hashed in full (the AWS
     * provider's is 700 MB), and install waits for a hash in progress rather than computing it again.
     * The lock file's providers are hashed at once; the root module's once init has read it and passed it
     * to {@link Prehash#rootRead} (it is read once, by init). Child modules are not read here; a provider
     * only they require is hashed by install itself. Quiet: install reports whatever is wrong.
     */
    static Prehash prehashInBackground(CommandContext context, boolean upgrade) {
        return new Prehash(context, upgrade);
    }

    /**
     * The background hashing of one init. Closing it waits for the hash in progress, so nothing init started
     * outlives it (in a test JVM, or an embedding program, the next command would otherwise run beside it).
     */
    static final class Prehash implements AutoCloseable {
        private final java.util.concurrent.CompletableFuture<ModuleConfig> root =
                new java.util.concurrent.CompletableFuture<>();
        private final Thread thread;

        private Prehash(CommandContext context, boolean upgrade) {
            thread = Thread.ofPlatform().daemon().name("strata-prehash").start(() -> {
                try {
                    prehashRootRequirements(context, upgrade, root::join);
                } catch (RuntimeException e) {
                    // install does the same work again and reports what failed
                }
            });
        }

        /** The root module as init read it; null when it could not be read. */
        void rootRead(ModuleConfig module) {
            root.complete(module);
        }

        /** Whether the hashing has finished. */
        boolean done() {
            return !thread.isAlive();
        }

        @Override
        public void close() {
            // A root module that was never read (init stopped before) is not waited for.
            root.complete(null);
            boolean interrupted = false;
            while (true) {
                try {
                    thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Hashes what the lock file names, then what {@code rootModule} (asked for only then: init may still be
     * reading it) requires; a null root module ends it.
     */
    static void prehashRootRequirements(
            CommandContext context, boolean upgrade, java.util.function.Supplier<ModuleConfig> rootModule) {
        Path dir = context.workingDir();
        Result<LockFile> previous = readLock(dir);
        if (previous.value() == null || previous.hasErrors() || !ConfigLoader.hasConfigFiles(dir)) {
            return;
        }
        ProviderInstaller.Options options = options(context, upgrade);
        ProviderRegistry builtins = builtins();
        java.util.function.Predicate<Provider> external = p -> !p.isBuiltIn() && !builtins.has(p);
        // A lock file (a fresh checkout's, a CI job's) names the versions install will select: those are
        // hashed first, before the configuration is read.
        if (!upgrade) {
            List<ProviderInstaller.Requirement> locked = previous.value().providers().values().stream()
                    .filter(e -> external.test(e.address()))
                    .map(e -> new ProviderInstaller.Requirement(e.address(), List.of(e.constraints())))
                    .toList();
            ProviderInstaller.prehash(options, locked, previous.value());
        }
        ModuleConfig root = rootModule.get();
        if (root == null) {
            return;
        }
        Map<Provider, List<String>> required = new java.util.TreeMap<>();
        for (RequiredProvider rp : root.requiredProviders().values()) {
            List<String> l = required.computeIfAbsent(rp.source(), k -> new ArrayList<>());
            if (rp.version() != null) {
                l.add(rp.version().source());
            }
        }
        for (ProviderConfig p : root.providerConfigs().values()) {
            required.computeIfAbsent(root.providerFor(p.name()), k -> new ArrayList<>());
        }
        for (ResourceConfig r : root.resources().values()) {
            required.computeIfAbsent(root.providerFor(r.providerConfig().localName()), k -> new ArrayList<>());
        }
        List<ProviderInstaller.Requirement> fromRoot = required.entrySet().stream()
                .filter(e -> external.test(e.getKey()))
                .map(e -> new ProviderInstaller.Requirement(e.getKey(), e.getValue()))
                .toList();
        // What the lock file named is remembered now, so only what it did not name is read here.
        ProviderInstaller.prehash(options, fromRoot, previous.value());
    }

    /** All of a provider's constraint strings as one; unparseable ones were reported by validation. */
    static VersionConstraint constraints(List<String> constraints) {
        Optional<String> merged = Optional.of(
                String.join(", ", constraints.stream().filter(c -> !c.isBlank()).toList()));
        Result<VersionConstraint> r = VersionConstraint.parse(merged.get());
        return r.hasErrors() ? VersionConstraint.ANY : r.value();
    }
}
