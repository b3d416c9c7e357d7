import * as articles from './articles.ts';
import { type Operation, planned } from './define.ts';
import * as general from './general.ts';
import * as pricing from './pricing.ts';
import * as stock from './stock.ts';

/**
 * The 75 operations of the TV2 interface (shared/reference/operations.md), one row each. A built
 * operation is its definition; `planned(...)` rows answer 501 NOT_IMPLEMENTED until their area lands.
 * GetToken (the 75th) is served by src/http/token-route.ts.
 */
export const OPERATIONS: Operation[] = [
  // Articles, images, size tables
  articles.B2B_GetAllArticles,
  articles.B2B_GetArticle,
  pricing.B2C_GetAllActionPrice,
  articles.B2C_GetAllArticlesImages,
  articles.B2C_GetAllArticles,
  pricing.B2C_GetArticleACTIONPrice,
  articles.B2C_GetArticleImage,
  articles.B2C_GetArticle,
  articles.GetSizeTables,
  // Clients (retail)
  planned('GET', 'B2C_GetClient_Purchase', 'Clients', 'Client purchases'),
  planned('GET', 'B2C_GetClient', 'Clients', 'One client'),
  planned('POST', 'B2C_PostClient', 'Clients', 'Create or post a client'),
  // Retail miscellaneous
  planned('GET', 'B2B_GetInvoicePDF', 'Invoices', 'Invoice as PDF'),
  planned('GET', 'B2C_BonuscardHistory', 'Loyalty', 'Bonus card history'),
  planned('GET', 'B2C_ClaimClientAction', 'Clients', 'Claim a client action'),
  planned('GET', 'B2C_GetAllShopImages', 'Shops', 'All shop images'),
  planned('GET', 'B2C_GetAllShops', 'Shops', 'All shops'),
  planned('GET', 'B2C_GetClientActions', 'Clients', 'Client actions'),
  planned('GET', 'B2C_GetClientMemberCardInfo', 'Clients', 'Client member card information'),
  planned('GET', 'B2C_GetClient_OnAccountDetail', 'Clients', 'Detail of client on-account amounts'),
  planned('GET', 'B2C_GetClient_OpenOnAccount', 'Clients', 'Open on-account amounts of a client'),
  planned('GET', 'B2C_GetCompanyRegEx', 'Shops', 'Company regular expression'),
  planned('GET', 'B2C_GetHomePages', 'Shops', 'Home pages'),
  planned('GET', 'B2C_GetMemberCardPhotoBase64', 'Clients', 'Member card photo, base64'),
  planned('GET', 'B2C_GetPickUpLocations', 'Shops', 'Pickup locations'),
  planned('GET', 'B2C_GetProfilePhotoBase64', 'Clients', 'Profile photo, base64'),
  planned('GET', 'B2C_GetShopAssistants', 'Shops', 'Shop assistants'),
  planned('GET', 'B2C_GetShopImage', 'Shops', 'Image of one shop'),
  planned('GET', 'B2C_GetUserMessages', 'Clients', 'User messages'),
  planned('POST', 'B2C_PostProfilePhotoBase64', 'Clients', 'Post profile photo, base64'),
  planned('GET', 'B2C_UpdateMarkedForDeletion', 'Clients', 'Update marked-for-deletion flag'),
  general.APIPing,
  // Customers and representatives (wholesale)
  planned('GET', 'B2B_GetAllCustomerArticleLink', 'Customers', 'All customer-article links'),
  planned('GET', 'B2B_GetAllCustomers', 'Customers', 'All customers'),
  planned('GET', 'B2B_GetCustomerArticleLink', 'Customers', 'Customer-article links of one customer'),
  pricing.B2B_GetCustomerLineDiscounts,
  planned('GET', 'B2B_GetCustomer', 'Customers', 'One customer'),
  planned('GET', 'B2B_GetRepresentativeCustomers', 'Customers', 'Customers of a representative'),
  planned('GET', 'B2B_GetRepresentatives', 'Customers', 'Representatives'),
  planned('POST', 'B2B_PostCustomer', 'Customers', 'Post a customer'),
  // Orders (retail)
  planned('POST', 'B2C_CloseClientOrder', 'Orders', 'Close a client order'),
  planned('GET', 'B2C_GetOrderStateChanges', 'Orders', 'Order state changes'),
  planned('GET', 'B2C_GetOrderState', 'Orders', 'State of one order'),
  planned('POST', 'B2C_GetReturnLocation', 'Orders', 'Return location'),
  planned('POST', 'B2C_PostWebOrder', 'Orders', 'Post a web order'),
  // Orders, deliveries, invoices (wholesale)
  planned('GET', 'B2B_GetDeliveryHistory', 'Orders', 'Delivery history'),
  planned('GET', 'B2B_GetInvoiceHistory', 'Invoices', 'Invoice history'),
  planned('GET', 'B2B_GetOrderHistory', 'Orders', 'Order history'),
  planned('GET', 'B2B_GetOrderStateChanges', 'Orders', 'Order state changes'),
  planned('GET', 'B2B_GetOrderState', 'Orders', 'State of one order'),
  planned('GET', 'B2B_GetOrder', 'Orders', 'One order'),
  planned('GET', 'B2B_GetUnsettledItems', 'Invoices', 'Unsettled items'),
  planned('POST', 'B2B_PostDeliveryAddress', 'Customers', 'Post a delivery address'),
  planned('POST', 'B2B_PostOrdCus', 'Orders', 'Post an order for a customer'),
  // Prices (wholesale)
  pricing.B2B_GetAllPriceAgreements,
  pricing.B2B_GetAllPrices,
  pricing.B2B_GetArticlePrice,
  pricing.B2B_GetPriceAgreement,
  pricing.B2B_GetPriceChanges,
  // Stock
  stock.B2B_GetArticleStock,
  stock.B2B_GetStockChanges,
  stock.B2B_GetStocks,
  stock.B2C_GetArticleStock,
  stock.B2C_GetStockChanges,
  stock.B2C_GetStocks,
  // Credit notes, cheques, vouchers, bonus cards
  planned('GET', 'B2C_GetALLOpenCreditNotes', 'Vouchers', 'All open credit notes'),
  planned('GET', 'B2C_GetBonusCardValue', 'Loyalty', 'Bonus card value'),
  planned('GET', 'B2C_GetOpenClientCheque', 'Vouchers', 'Open client cheque'),
  planned('POST', 'B2C_PostCashedClientCheque', 'Vouchers', 'Post a cashed client cheque'),
  planned('POST', 'B2C_PostCashedVoucher', 'Vouchers', 'Post a cashed voucher'),
  planned('POST', 'B2C_PostNewCreditNoteVoucher', 'Vouchers', 'Post a new credit note voucher'),
  planned('POST', 'B2C_PostNewGiftVoucher', 'Vouchers', 'Post a new gift voucher'),
  planned('POST', 'B2C_UpdateBonusCardValue', 'Loyalty', 'Update bonus card value'),
  planned('GET', 'B2C_ValidateVoucher', 'Vouchers', 'Validate a voucher'),
];
