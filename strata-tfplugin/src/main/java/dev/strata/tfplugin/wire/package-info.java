/**
 * Values and types as they cross the plugin wire: cty's JSON type encoding ({@link TypeJson}),
 * msgpack values ({@link MsgpackValues}) and the JSON fallback ({@link JsonValues}). Entry point for
 * a DynamicValue: {@link MsgpackValues#decode(byte[], dev.strata.lang.types.Type)}.
 */
package dev.strata.tfplugin.wire;
