/**
 * A presentation as the slide converter prints it (issue 43), whatever file it came from: the
 * slide size, and each visible slide's background and shapes, placed in the slide's own space
 * (points), master's and layout's shapes first. The Office parts' shape model is the slides'.
 */
import type { Chart, FramedShape, Gradient, Picture, TextParagraph } from '../office/model';
import type { FontPartRef } from '../../fonts/document-faces/load';

export interface Slide {
  /** RRGGBB; white where absent. */
  background?: string;
  /** A linear gradient over the slide, where the background is one (`background` then its average). */
  backgroundGradient?: Gradient;
  /** A picture stretched over the slide, in place of the colour. */
  backgroundPicture?: Picture;
  shapes: FramedShape<TextParagraph>[];
  /** Charts (p:graphicFrame with a c:chart), over the shapes, each in its box on the slide (points). */
  charts?: { box: { x: number; y: number; width: number; height: number }; chart: Chart }[];
}

export interface Deck {
  /** The slide size, points. */
  width: number;
  height: number;
  slides: Slide[];
  /** Text lines spaced as PowerPoint spaces them (1.2 em whatever the face: layout/blocks/line-box.ts), not by their faces' metrics. */
  fontIndependentLines?: boolean;
  /** The fonts the deck embeds, not read yet: those its text uses are read when it is drawn (render.ts). */
  embeddedFonts?: FontPartRef[];
}
