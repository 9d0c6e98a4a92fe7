package dev.strata.cli.view;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.strata.addr.AbsResourceInstance;
import dev.strata.addr.InstanceKey;
import dev.strata.addr.ResourceMode;
import dev.strata.cli.command.CommandContext;
import dev.strata.engine.Action;
import dev.strata.engine.Plan;
import dev.strata.engine.ResourceChange;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;

/** {@code plan -json}: Terraform's machine-readable UI stream, one JSON object per line. */
public final class PlanJsonView extends View {
    private static final ObjectMapper JSON = new ObjectMapper();

    public PlanJsonView(CommandContext context) {
        super(context);
    }

    private ObjectNode message(String level, String text, String type) {
        ObjectNode n = JSON.createObjectNode();
        n.put("@level", level);
        n.put("@message", text);
        n.put("@module", "strata.ui");
        n.put("@timestamp", OffsetDateTime.now().format(DateTimeFormatter.ISO_OFFSET_DATE_TIME));
        n.put("type", type);
        return n;
    }

    private void emit(ObjectNode n) {
        out().println(n.toString());
    }

    public void stream(Plan plan) {
        ObjectNode v = message("info", "Strata " + dev.strata.cli.command.Version.current(), "version");
        v.put("terraform", dev.strata.cli.command.Version.current());
        v.put("ui", "1.2");
        emit(v);
        for (ResourceChange c : plan.changes()) {
            if (c.action() == Action.NO_OP && c.importId() == null && c.previousAddr() == null) {
                continue;
            }
            String action = switch (c.action()) {
                case CREATE -> "create";
                case UPDATE -> "update";
                case DELETE -> "delete";
                case READ -> "read";
                case DELETE_THEN_CREATE, CREATE_THEN_DELETE -> "replace";
                case NO_OP -> c.importId() != null ? "import" : c.previousAddr() != null ? "move" : "noop";
                case FORGET -> "remove";
            };
            ObjectNode m = message("info", c.addr() + ": Plan to " + action, "planned_change");
            ObjectNode ch = m.putObject("change");
            ch.set("resource", resource(c.addr()));
            ch.put("action", action);
            if (c.reason() != null) {
                ch.put("reason", c.reason());
            }
            emit(m);
        }
        Plan.Summary s = plan.summary();
        ObjectNode sum = message("info", "Plan: " + s.add() + " to add, " + s.change() + " to change, " + s.destroy()
                + " to destroy.", "change_summary");
        ObjectNode changes = sum.putObject("changes");
        changes.put("add", s.add());
        changes.put("change", s.change());
        changes.put("import", s.importing());
        changes.put("remove", s.destroy());
        changes.put("operation", "plan");
        emit(sum);
        ObjectNode outs = message("info", "Outputs: " + plan.outputs().size(), "outputs");
        ObjectNode o = outs.putObject("outputs");
        plan.outputs().forEach((k, oc) -> {
            ObjectNode x = o.putObject(k);
            x.put("sensitive", oc.sensitive());
            x.put("action", oc.action() == Action.NO_OP ? "noop" : oc.action().jsonActions().getFirst());
        });
        emit(outs);
    }

    static ObjectNode resource(AbsResourceInstance a) {
        ObjectNode r = JSON.createObjectNode();
        r.put("addr", a.toString());
        r.put("module", a.module().isRoot() ? "" : a.module().toString());
        r.put("resource", a.resource().toString());
        r.put("implied_provider", a.resource().resource().impliedProviderName());
        r.put("resource_type", a.resource().resource().type());
        r.put("resource_name", a.resource().resource().name());
        switch (a.resource().key()) {
            case InstanceKey.IntKey i -> r.put("resource_key", i.index());
            case InstanceKey.StringKey s -> r.put("resource_key", s.key());
            case InstanceKey.NoKey n -> r.putNull("resource_key");
        }
        if (a.resource().resource().mode() == ResourceMode.DATA) {
            r.put("resource", a.resource().toString());
        }
        return r;
    }
}
