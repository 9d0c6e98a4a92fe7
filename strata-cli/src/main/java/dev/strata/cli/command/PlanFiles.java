package dev.strata.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.Addrs;
import dev.strata.addr.Targetable;
import dev.strata.cli.version.Version;
import dev.strata.config.ConfigTree;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanCodec;
import dev.strata.engine.PlanOptions;
import dev.strata.hcl.Diagnostic;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.IoProblems;
import dev.strata.hcl.Result;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Saved plans ({@code plan -out}, {@code apply PLANFILE}): the plan with everything apply needs — the
 * options it was made with, the hash of the configuration it was made from, and the prior state
 * (whose serial and lineage let apply refuse a stale plan). Written atomically; a damaged or
 * foreign file is refused with a message, never half-read.
 */
final class PlanFiles {
    private static final String MAGIC = "strata-plan";

    private PlanFiles() {}

    /**
     * @param policyResults the policy report of the plan as saved ({@code PolicyReport.toJson()} with its
     *     summary line), or null when no policy applied
     */
    record Loaded(Plan plan, PlanOptions options, JsonNode policyResults) {}

    static Result<Void> write(Path file, Plan plan, ConfigTree tree, PlanOptions options) {
        return write(file, plan, tree, options, dev.strata.policy.PolicyReport.NONE);
    }

    /** Saves the plan with the outcome of the policies checked on it, which {@code show} prints again. */
    static Result<Void> write(
            Path file, Plan plan, ConfigTree tree, PlanOptions options, dev.strata.policy.PolicyReport policies) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        n.put("magic", MAGIC);
        n.put("strata_version", Version.current());
        n.put("config_hash", configHash(tree));
        n.put("workspace", options.workspace());
        n.put("refresh", options.refresh());
        n.put("parallelism", options.parallelism());
        ArrayNode targets = n.putArray("targets");
        options.targets().forEach(t -> targets.add(t.toString()));
        if (!options.excludes().isEmpty()) {
            ArrayNode excludes = n.putArray("excludes");
            options.excludes().forEach(t -> excludes.add(t.toString()));
        }
        ArrayNode replace = n.putArray("replace");
        options.replace().forEach(r -> replace.add(r.toString()));
        n.set("plan", PlanCodec.encode(plan));
        if (policies.policies() > 0) {
            ObjectNode results = policies.toJson();
            results.put("summary", policies.summaryLine());
            n.set("policy_results", results);
        }
        byte[] bytes = PlanCodec.toBytes(n);
        try {
            Path dir = file.toAbsolutePath().getParent();
            try {
                Files.createDirectories(dir);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // Java's word for "a file is in the way"; the OS (and Terraform) say what it means.
                throw new java.nio.file.FileSystemException(e.getFile(), null, "not a directory");
            }
            Path tmp = Files.createTempFile(dir, ".strata-plan", ".tmp");
            try {
                Files.write(tmp, bytes);
                try {
                    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(tmp);
            }
            return Result.of(null);
        } catch (IOException e) {
            return Result.of(
                    null,
                    Diagnostics.of(Diagnostic.error(
                            "Failed to write plan file",
                            "Could not write " + IoProblems.describe(file, e) + ".",
                            null)));
        }
    }

    static Result<Loaded> read(Path file, ConfigTree tree, Path workingDir) {
        byte[] bytes;
        if (Files.isDirectory(file)) {
            return fail(
                    "Failed to load \"" + file.getFileName() + "\" as a plan file",
                    "The specified path is a "
                            + "directory, not a plan file. You can use the global -chdir flag to use this directory as the "
                            + "configuration root.");
        }
        try {
            bytes = Files.readAllBytes(file);
        } catch (IOException e) {
            return fail(
                    "Failed to load \"" + file.getFileName() + "\" as a plan file",
                    "Could not read " + IoProblems.describe(file, e) + ".");
        }
        try {
            JsonNode n = PlanCodec.parse(bytes);
            if (!MAGIC.equals(n.path("magic").asText())) {
                throw new PlanCodec.Damaged("it is not a Strata plan file");
            }
            if (!configHash(tree).equals(n.path("config_hash").asText())) {
                return fail(
                        "Saved plan does not match the configuration",
                        "The configuration files changed after "
                                + "the plan " + file.getFileName() + " was created, so it can no longer be applied as "
                                + "reviewed. Create a new plan with strata plan -out.");
            }
            Plan plan = PlanCodec.decode(n.path("plan"));
            List<Targetable> targets = new ArrayList<>();
            for (JsonNode t : n.path("targets")) {
                Targetable x = Addrs.parseTarget(t.asText()).value();
                if (x == null) {
                    throw new PlanCodec.Damaged("bad target " + t);
                }
                targets.add(x);
            }
            List<Targetable> excludes = new ArrayList<>();
            for (JsonNode t : n.path("excludes")) {
                Targetable x = Addrs.parseTarget(t.asText()).value();
                if (x == null) {
                    throw new PlanCodec.Damaged("bad exclude " + t);
                }
                excludes.add(x);
            }
            if (!targets.isEmpty() && !excludes.isEmpty()) {
                throw new PlanCodec.Damaged("it has both targets and excludes");
            }
            List<AbsResourceInstance> replace = new ArrayList<>();
            for (JsonNode t : n.path("replace")) {
                AbsResourceInstance x =
                        Addrs.parseAbsResourceInstance(t.asText()).value();
                if (x == null) {
                    throw new PlanCodec.Damaged("bad replace address " + t);
                }
                replace.add(x);
            }
            PlanOptions options = new PlanOptions(
                    workingDir,
                    workingDir,
                    n.path("workspace").asText("default"),
                    plan.mode(),
                    n.path("refresh").asBoolean(true),
                    targets,
                    excludes,
                    replace,
                    Math.max(1, n.path("parallelism").asInt(10)));
            JsonNode policyResults = n.get("policy_results");
            if (policyResults != null && !policyResults.isObject()) {
                throw new PlanCodec.Damaged("bad policy results");
            }
            return Result.of(new Loaded(plan, options, policyResults));
        } catch (PlanCodec.Damaged e) {
            return fail(
                    "Failed to load \"" + file.getFileName() + "\" as a plan file",
                    "The file is damaged or " + "not a plan file: " + e.getMessage()
                            + ". Create a new plan with strata plan -out.");
        }
    }

    private static <T> Result<T> fail(String summary, String detail) {
        return Result.of(null, Diagnostics.of(Diagnostic.error(summary, detail, null)));
    }

    /** SHA-256 over every configuration file's name and bytes, in name order. */
    static String configHash(ConfigTree tree) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            for (Map.Entry<String, byte[]> e : new TreeMap<>(tree.files()).entrySet()) {
                if (e.getKey().endsWith(dev.strata.hcl.DiagnosticRenderer.SOURCE_MAP_SUFFIX)) {
                    continue; // where in the program the JSON came from is not configuration
                }
                md.update(e.getKey().getBytes(StandardCharsets.UTF_8));
                md.update((byte) 0);
                md.update(e.getValue());
                md.update((byte) 0);
            }
            return HexFormat.of().formatHex(md.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
