package dev.strata.stacks.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.engine.Plan;
import dev.strata.engine.PlanCodec;
import dev.strata.engine.PlanMode;
import dev.strata.hcl.Diagnostics;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * A saved Stacks plan ({@code strata stacks plan -out=FILE}): for each deployment, each component
 * instance's module plan in the engine's plan format, with why it was deferred and what it depends on.
 * Deployment inputs are evaluated again at apply; a component instance whose inputs or state changed
 * since is refused as stale.
 */
public final class StackPlanFile {
    static final String FORMAT = "strata-stacks-plan/1";
    private static final ObjectMapper JSON = new ObjectMapper();

    private StackPlanFile() {}

    /** The plan could not be read: damaged, or not a Stacks plan. */
    public static final class Damaged extends Exception {
        Damaged(String message) {
            super(message);
        }
    }

    public static byte[] encode(List<DeploymentPlan> plans) {
        ObjectNode root = JSON.createObjectNode();
        root.put("format", FORMAT);
        ArrayNode ds = root.putArray("deployments");
        for (DeploymentPlan p : plans) {
            ObjectNode d = ds.addObject();
            d.put("deployment", p.deployment());
            d.put("mode", p.mode().name());
            ArrayNode cs = d.putArray("components");
            for (ComponentPlan c : p.components()) {
                ObjectNode n = cs.addObject();
                n.put("address", c.address());
                if (c.plan() != null) {
                    n.set("plan", PlanCodec.encode(c.plan()));
                }
                if (c.deferredReason() != null) {
                    n.put("deferred_reason", c.deferredReason());
                }
                n.put("removed", c.removed());
                ArrayNode deps = n.putArray("depends_on");
                c.dependsOn().forEach(deps::add);
            }
        }
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(root);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    public static List<DeploymentPlan> decode(byte[] bytes) throws Damaged {
        JsonNode root;
        try {
            root = JSON.readTree(bytes);
        } catch (IOException e) {
            throw new Damaged("the file is not valid JSON");
        }
        if (root == null || !FORMAT.equals(root.path("format").asText())) {
            throw new Damaged("the file is not a Strata Stacks plan");
        }
        List<DeploymentPlan> out = new ArrayList<>();
        for (JsonNode d : root.path("deployments")) {
            List<ComponentPlan> cs = new ArrayList<>();
            for (JsonNode n : d.path("components")) {
                Plan p = null;
                if (n.has("plan")) {
                    try {
                        p = PlanCodec.decode(n.get("plan"));
                    } catch (PlanCodec.Damaged e) {
                        throw new Damaged(
                                "the plan of " + n.path("address").asText() + " is damaged: " + e.getMessage());
                    }
                }
                List<String> deps = new ArrayList<>();
                n.path("depends_on").forEach(x -> deps.add(x.asText()));
                cs.add(new ComponentPlan(
                        n.path("address").asText(),
                        p,
                        n.has("deferred_reason") ? n.get("deferred_reason").asText() : null,
                        n.path("removed").asBoolean(),
                        deps,
                        Diagnostics.NONE));
            }
            PlanMode mode;
            try {
                mode = PlanMode.valueOf(d.path("mode").asText());
            } catch (IllegalArgumentException e) {
                throw new Damaged("unknown plan mode \"" + d.path("mode").asText() + "\"");
            }
            out.add(new DeploymentPlan(
                    d.path("deployment").asText(), mode, new TreeMap<>(), cs, new TreeMap<>(), Diagnostics.NONE));
        }
        return out;
    }
}
