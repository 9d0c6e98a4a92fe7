package dev.strata.stacks.config;

import dev.strata.hcl.Attribute;
import dev.strata.hcl.AttributeSchema;
import dev.strata.hcl.Block;
import dev.strata.hcl.BlockHeaderSchema;
import dev.strata.hcl.BodyContent;
import dev.strata.hcl.BodySchema;
import dev.strata.hcl.Diagnostics;
import dev.strata.hcl.Expression;
import dev.strata.hcl.Result;
import dev.strata.stacks.addr.DeploymentAddr;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Loads a deployment configuration: the {@code .tfdeploy.hcl} and {@code .tfdeploy.json} files of a
 * stack directory. Blocks only HCP Terraform can act on load too; they are errors only where used
 * ({@link StackValidator#validateDeployments}).
 */
public final class DeploymentLoader {
    static final BodySchema TOP = new BodySchema(
            List.of(),
            List.of(
                    BlockHeaderSchema.of("deployment", "name"),
                    BlockHeaderSchema.of("deployment_group", "name"),
                    BlockHeaderSchema.of("deployment_auto_approve", "name"),
                    BlockHeaderSchema.of("locals"),
                    BlockHeaderSchema.of("store", "type", "name"),
                    BlockHeaderSchema.of("publish_output", "name"),
                    BlockHeaderSchema.of("upstream_input", "name"),
                    BlockHeaderSchema.of("identity_token", "name"),
                    BlockHeaderSchema.of("orchestrate", "type", "name")));

    private static final BodySchema DEPLOYMENT = new BodySchema(
            List.of(
                    AttributeSchema.optional("inputs"),
                    AttributeSchema.optional("destroy"),
                    AttributeSchema.optional("deployment_group")),
            List.of());

    private static final BodySchema GROUP =
            new BodySchema(List.of(AttributeSchema.optional("auto_approve_checks")), List.of());

    private static final BodySchema AUTO_APPROVE = new BodySchema(List.of(), List.of(BlockHeaderSchema.of("check")));

    private static final BodySchema CHECK = new BodySchema(
            List.of(AttributeSchema.required("condition"), AttributeSchema.required("reason")), List.of());

    private static final BodySchema PUBLISH = new BodySchema(
            List.of(
                    AttributeSchema.required("value"),
                    AttributeSchema.optional("type"),
                    AttributeSchema.optional("description")),
            List.of());

    private static final BodySchema UPSTREAM =
            new BodySchema(List.of(AttributeSchema.required("type"), AttributeSchema.required("source")), List.of());

    private static final BodySchema ENV_STORE = new BodySchema(List.of(AttributeSchema.optional("prefix")), List.of());

    private static final BodySchema FILE_STORE = new BodySchema(List.of(AttributeSchema.required("path")), List.of());

    private final Path rootDir;
    private final Diagnostics.Builder diags = Diagnostics.builder();
    private final Decoding decoding = new Decoding(diags);

    private DeploymentLoader(Path dir) {
        this.rootDir = dir.toAbsolutePath().normalize();
    }

    /** Loads the deployment configuration in {@code dir}; an empty one when there are no files. */
    public static Result<DeploymentConfig> load(Path dir) {
        return new DeploymentLoader(dir).load();
    }

    private Result<DeploymentConfig> load() {
        List<String> files = new ArrayList<>();
        TreeMap<String, byte[]> sources = new TreeMap<>();
        TreeMap<String, DeploymentBlock> deployments = new TreeMap<>();
        TreeMap<String, DeploymentGroupBlock> groups = new TreeMap<>();
        TreeMap<String, AutoApproveRule> rules = new TreeMap<>();
        TreeMap<String, StackLocal> locals = new TreeMap<>();
        TreeMap<String, StoreBlock> stores = new TreeMap<>();
        TreeMap<String, PublishOutputBlock> publish = new TreeMap<>();
        TreeMap<String, UpstreamInputBlock> upstream = new TreeMap<>();
        TreeMap<String, HcpOnlyBlock> hcpOnly = new TreeMap<>();
        for (Path f : StackFiles.deploymentFiles(rootDir)) {
            String name = StackFiles.display(rootDir, f);
            byte[] bytes = StackFiles.read(f, name, diags);
            if (bytes == null) {
                continue;
            }
            files.add(name);
            sources.put(name, bytes);
            BodyContent c = StackFiles.content(bytes, name, TOP, diags);
            if (c == null) {
                continue;
            }
            for (Block b : c.blocks()) {
                switch (b.type()) {
                    case "deployment" -> deployment(b, deployments);
                    case "deployment_group" -> group(b, groups);
                    case "deployment_auto_approve" -> autoApprove(b, rules);
                    case "locals" -> StackLoader.locals(b, locals, diags, decoding);
                    case "store" -> store(b, stores);
                    case "publish_output" -> publishOutput(b, publish);
                    case "upstream_input" -> upstreamInput(b, upstream);
                    default -> hcpOnly(b, hcpOnly);
                }
            }
        }
        return Result.of(
                new DeploymentConfig(
                        rootDir,
                        files,
                        deployments,
                        groups,
                        rules,
                        locals,
                        stores,
                        publish,
                        upstream,
                        hcpOnly,
                        sources),
                diags.build().inPlaceOrder());
    }

    private boolean unique(
            Map<String, ?> into,
            String key,
            String what,
            Block b,
            java.util.function.Function<Object, dev.strata.hcl.SourceRange> rangeOf) {
        Object prev = into.get(key);
        if (prev == null) {
            return true;
        }
        decoding.duplicate(what, key, rangeOf.apply(prev), b.defRange());
        return false;
    }

    private void deployment(Block b, Map<String, DeploymentBlock> into) {
        String name = b.labels().getFirst();
        if (!decoding.validName(name, "deployment", b.labelRanges().getFirst())) {
            return;
        }
        Result<BodyContent> r = b.body().content(DEPLOYMENT);
        diags.addAll(r.diagnostics());
        if (!unique(into, name, "deployment", b, o -> ((DeploymentBlock) o).declRange())) {
            return;
        }
        into.put(
                name,
                new DeploymentBlock(
                        new DeploymentAddr(name),
                        exprOf(r.value(), "inputs"),
                        exprOf(r.value(), "destroy"),
                        decoding.traversal(r.value().attributes().get("deployment_group")),
                        b.defRange()));
    }

    private void group(Block b, Map<String, DeploymentGroupBlock> into) {
        String name = b.labels().getFirst();
        if (!decoding.validName(name, "deployment group", b.labelRanges().getFirst())) {
            return;
        }
        Result<BodyContent> r = b.body().content(GROUP);
        diags.addAll(r.diagnostics());
        if (!unique(into, name, "deployment group", b, o -> ((DeploymentGroupBlock) o).declRange())) {
            return;
        }
        into.put(
                name,
                new DeploymentGroupBlock(
                        name, decoding.traversalList(r.value().attributes().get("auto_approve_checks")), b.defRange()));
    }

    private void autoApprove(Block b, Map<String, AutoApproveRule> into) {
        String name = b.labels().getFirst();
        if (!decoding.validName(name, "deployment_auto_approve", b.labelRanges().getFirst())) {
            return;
        }
        Result<BodyContent> r = b.body().content(AUTO_APPROVE);
        diags.addAll(r.diagnostics());
        if (!unique(into, name, "deployment_auto_approve", b, o -> ((AutoApproveRule) o).declRange())) {
            return;
        }
        List<AutoApproveRule.Check> checks = new ArrayList<>();
        for (Block cb : r.value().blocksOfType("check")) {
            Result<BodyContent> cr = cb.body().content(CHECK);
            diags.addAll(cr.diagnostics());
            Expression cond = exprOf(cr.value(), "condition");
            Expression reason = exprOf(cr.value(), "reason");
            if (cond != null && reason != null) {
                checks.add(new AutoApproveRule.Check(cond, reason, cb.defRange()));
            }
        }
        if (checks.isEmpty()) {
            diags.error(
                    "Missing check block",
                    "A deployment_auto_approve block needs at least one check block with a condition and a reason.",
                    b.defRange());
        }
        into.put(name, new AutoApproveRule(name, checks, b.defRange()));
    }

    private void store(Block b, Map<String, StoreBlock> into) {
        String type = b.labels().get(0);
        String name = b.labels().get(1);
        if (!decoding.validName(name, "store", b.labelRanges().get(1))) {
            return;
        }
        String key = type + "." + name;
        if (!unique(into, key, "store", b, o -> ((StoreBlock) o).declRange())) {
            return;
        }
        StoreBlock.Kind kind;
        Map<String, Attribute> args;
        switch (type) {
            case "env" -> {
                kind = StoreBlock.Kind.ENV;
                Result<BodyContent> r = b.body().content(ENV_STORE);
                diags.addAll(r.diagnostics());
                args = r.value().attributes();
            }
            case "file" -> {
                kind = StoreBlock.Kind.FILE;
                Result<BodyContent> r = b.body().content(FILE_STORE);
                diags.addAll(r.diagnostics());
                args = r.value().attributes();
            }
            default -> {
                // HCP Terraform's store types (varset) are only read there; keep the arguments as written
                kind = StoreBlock.Kind.HCP_ONLY;
                Result<Map<String, Attribute>> r = b.body().justAttributes();
                diags.addAll(r.diagnostics());
                args = r.value();
            }
        }
        into.put(key, new StoreBlock(type, name, kind, new TreeMap<>(args), b.defRange()));
    }

    private void publishOutput(Block b, Map<String, PublishOutputBlock> into) {
        String name = b.labels().getFirst();
        if (!decoding.validName(name, "publish_output", b.labelRanges().getFirst())) {
            return;
        }
        Result<BodyContent> r = b.body().content(PUBLISH);
        diags.addAll(r.diagnostics());
        if (!unique(into, name, "publish_output", b, o -> ((PublishOutputBlock) o).declRange())) {
            return;
        }
        Attribute t = r.value().attributes().get("type");
        StackType type = t == null ? null : decoding.type(t, n -> null);
        into.put(
                name,
                new PublishOutputBlock(
                        name,
                        type,
                        exprOf(r.value(), "value"),
                        decoding.constString(r.value().attributes().get("description")),
                        b.defRange()));
    }

    private void upstreamInput(Block b, Map<String, UpstreamInputBlock> into) {
        String name = b.labels().getFirst();
        if (!decoding.validName(name, "upstream_input", b.labelRanges().getFirst())) {
            return;
        }
        Result<BodyContent> r = b.body().content(UPSTREAM);
        diags.addAll(r.diagnostics());
        if (!unique(into, name, "upstream_input", b, o -> ((UpstreamInputBlock) o).declRange())) {
            return;
        }
        Attribute typeAttr = r.value().attributes().get("type");
        String type = decoding.constString(typeAttr);
        if (type != null && !type.equals("stack")) {
            diags.error(
                    "Invalid upstream_input type",
                    "The only supported upstream_input type is \"stack\".",
                    typeAttr.expr().range());
        }
        Attribute src = r.value().attributes().get("source");
        into.put(
                name,
                new UpstreamInputBlock(
                        name,
                        type,
                        decoding.constString(src),
                        src == null ? b.defRange() : src.expr().range(),
                        b.defRange()));
    }

    private void hcpOnly(Block b, Map<String, HcpOnlyBlock> into) {
        String key = b.type() + "." + String.join(".", b.labels());
        if (!unique(into, key, b.type(), b, o -> ((HcpOnlyBlock) o).declRange())) {
            return;
        }
        into.put(key, new HcpOnlyBlock(b.type(), b.labels(), b.body(), b.defRange()));
    }

    private static Expression exprOf(BodyContent c, String name) {
        Attribute a = c.attributes().get(name);
        return a == null ? null : a.expr();
    }
}
