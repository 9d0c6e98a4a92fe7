package dev.strata.providers.terraform;

import dev.strata.addr.AttributePath;
import dev.strata.lang.types.Type;
import dev.strata.lang.value.Value;
import dev.strata.provider.Attribute;
import dev.strata.provider.Block;
import dev.strata.provider.ProviderDiagnostics;
import dev.strata.provider.Schema;
import dev.strata.provider.sdk.Attrs;
import dev.strata.provider.sdk.ManagedResource;
import java.util.UUID;

/**
 * {@code terraform_data}: stores {@code input} and echoes it as {@code output} after apply; a
 * change of {@code triggers_replace} replaces the object. Planning follows Terraform's built-in
 * provider exactly: the output is unknown whenever the input changes (typed as the input, null
 * when the input is null), and the id is a random UUID made on create.
 */
final class TerraformData implements ManagedResource {

    private static final Schema SCHEMA = Schema.of(Block.builder()
            .attribute(
                    "input",
                    Attribute.optional(Type.DYNAMIC)
                            .withDescription(
                                    "A value to store in the instance state. Changes trigger an update of output."))
            .attribute(
                    "output",
                    Attribute.computed(Type.DYNAMIC)
                            .withDescription("The stored value of input, available after apply."))
            .attribute(
                    "triggers_replace",
                    Attribute.optional(Type.DYNAMIC)
                            .withDescription(
                                    "A value which is stored in the instance state, and will force replacement when the value changes."))
            .attribute("id", Attribute.computed(Type.STRING).withDescription("A unique ID for this resource."))
            .build());

    @Override
    public String typeName() {
        return "terraform_data";
    }

    @Override
    public Schema schema() {
        return SCHEMA;
    }

    @Override
    public Value modifyPlan(PlanContext plan, ProviderDiagnostics.Builder diags) {
        Value config = plan.config();
        Value input = Attrs.get(config, "input");
        Value trigger = Attrs.get(config, "triggers_replace");
        Value planned = Attrs.with(plan.planned(), "input", input, "triggers_replace", trigger);
        Value newOutput = input.isNull() ? input : Value.unknown(input.type());
        if (plan.isCreate()) {
            return Attrs.with(planned, "id", Value.unknown(Type.STRING), "output", newOutput);
        }
        Value prior = plan.prior();
        if (!Attrs.get(prior, "triggers_replace").equalsIgnoringMarks(trigger)) {
            plan.requiresReplace().add(AttributePath.of("triggers_replace"));
            return Attrs.with(planned, "id", Value.unknown(Type.STRING), "output", newOutput);
        }
        // A changed input makes the output unknown even when the new input is null (terraform 1.11 plans
        // "output = ... -> (known after apply)"); only a create or replace plans a null input's null output.
        Value output = Attrs.get(prior, "input").equalsIgnoringMarks(input)
                ? Attrs.get(prior, "output")
                : Value.unknown(input.type());
        return Attrs.with(planned, "id", Attrs.get(prior, "id"), "output", output);
    }

    @Override
    public Value create(Value planned, Value config, String idempotencyToken, ProviderDiagnostics.Builder diags) {
        return Attrs.with(planned, "id", Value.string(UUID.randomUUID().toString()), "output", echo(planned, config));
    }

    /** The output echoes the input, sensitivity included (the configured value keeps its marks). */
    private static Value echo(Value planned, Value config) {
        Value in = config == null || config.isNull() ? null : Attrs.get(config, "input");
        return in != null && in.equalsIgnoringMarks(Attrs.get(planned, "input")) ? in : Attrs.get(planned, "input");
    }

    @Override
    public Value update(Value prior, Value planned, Value config, ProviderDiagnostics.Builder diags) {
        return Attrs.with(planned, "output", echo(planned, config));
    }

    @Override
    public Value importState(String id, ProviderDiagnostics.Builder diags) {
        return Attrs.with(nullObject(), "id", Value.string(id));
    }

    private static Value nullObject() {
        return Value.objectOf(
                "input",
                Value.NULL,
                "output",
                Value.NULL,
                "triggers_replace",
                Value.NULL,
                "id",
                Value.nullValue(Type.STRING));
    }
}
