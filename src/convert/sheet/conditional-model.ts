/**
 * Conditional formatting as the sheet model holds it (issue 42): a sheet's rules, each over its
 * ranges, with the differential style (dxf) it applies, or the colour scale, data bar or icon set
 * it draws. Only what a print can show is kept: rules whose formulas are constants or plain cell
 * references; others are left out when read.
 */
import type { BorderSide, Range } from './model';

/** A rule's operand: a number or text constant, or a cell reference (0-based; `absolute` parts do not move with the cell the rule is applied to). */
export type CfOperand =
  | { kind: 'number'; value: number }
  | { kind: 'text'; value: string }
  | { kind: 'bool'; value: boolean }
  | { kind: 'ref'; row: number; col: number; absRow: boolean; absCol: boolean };

export type CellIsOperator = 'lessThan' | 'lessThanOrEqual' | 'equal' | 'notEqual' | 'greaterThanOrEqual' | 'greaterThan' | 'between' | 'notBetween';

/** A value object of a colour scale, data bar or icon set: where a stop lies among the range's numbers. */
export interface Cfvo {
  type: 'min' | 'max' | 'num' | 'percent' | 'percentile' | 'formula' | 'autoMin' | 'autoMax';
  value?: number;
  /** Icon sets: the value must be ≥ (default) or > the stop. */
  gte?: boolean;
}

export type CfCondition =
  | { type: 'cellIs'; operator: CellIsOperator; operands: CfOperand[] }
  /** A formula rule whose formula is a constant or one cell reference: true where it is. */
  | { type: 'expression'; operand: CfOperand }
  | { type: 'containsText' | 'notContainsText' | 'beginsWith' | 'endsWith'; text: string }
  | { type: 'top10'; rank: number; bottom: boolean; percent: boolean }
  | { type: 'aboveAverage'; below: boolean; equal: boolean; stdDev: number }
  | { type: 'duplicateValues' | 'uniqueValues' }
  | { type: 'containsBlanks' | 'notContainsBlanks' | 'containsErrors' | 'notContainsErrors' }
  | { type: 'colorScale'; stops: Cfvo[]; colors: string[] }
  | { type: 'dataBar'; min: Cfvo; max: Cfvo; color: string; showValue: boolean; gradient: boolean; minLength?: number; maxLength?: number }
  | { type: 'iconSet'; set: string; stops: Cfvo[]; showValue: boolean; reverse: boolean };

export interface ConditionalFormat {
  /** The ranges the rule applies to (sqref); relative references count from the first one's top-left. */
  ranges: Range[];
  priority: number;
  stopIfTrue: boolean;
  /** Index into Workbook.dxfs. */
  dxf?: number;
  condition: CfCondition;
}

/** A differential format: only what it sets overrides the cell's own style. */
export interface DifferentialStyle {
  color?: string;
  bold?: boolean;
  italic?: boolean;
  underline?: boolean;
  strike?: boolean;
  /** RRGGBB. */
  fill?: string;
  borders?: { left?: BorderSide; right?: BorderSide; top?: BorderSide; bottom?: BorderSide };
}
